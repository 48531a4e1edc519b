"""The scorekeeper's tablet: evenings, tables, hands (issue 4)."""

urlpatterns: list = []
