"""The scorekeeper's tablet: evenings, tables, hands (issue 4)."""

from django.urls import path

from ledger.views import hands as hand_views
from ledger.views import scoring as views
from ledger.views import table_links as link_views

urlpatterns = [
    path("evening/start/", views.evening_start, name="evening_start"),
    path("evening/<int:pk>/", views.evening_detail, name="evening"),
    path("evening/<int:pk>/wall/", views.evening_wall, name="evening_wall"),
    path("evening/<int:pk>/table/new/", views.table_new, name="table_new"),
    path("table/<int:pk>/", views.table_detail, name="table"),
    path("table/<int:pk>/state.json", views.table_state, name="table_state"),
    path("table/<int:pk>/seat/", views.table_seat, name="table_seat"),
    path("table/<int:pk>/leave/", views.table_leave, name="table_leave"),
    path("table/<int:pk>/hand/new/", hand_views.hand_new, name="hand_new"),
    path("table/<int:pk>/hand/preview/", hand_views.hand_preview, name="hand_preview"),
    # A hand saved on a round table's own link, confirmed there by a second player (issue 27).
    path("table/<int:pk>/hand/confirm/", link_views.hand_confirm, name="hand_confirm"),
    path("hand/<int:pk>/", hand_views.hand_detail, name="hand"),
    path("hand/<int:pk>/correct/", hand_views.hand_correct, name="hand_correct"),
    path(
        "hand/<int:pk>/correct/preview/",
        hand_views.hand_correct_preview,
        name="hand_correct_preview",
    ),
    path("hand/<int:pk>/void/", hand_views.hand_void, name="hand_void"),
]
