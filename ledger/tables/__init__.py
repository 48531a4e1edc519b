"""django-tables2 tables, by area: ``columns`` (points and money written one way, the shared
columns), ``scoring`` (a table's hands), ``season`` (standings, evenings, a member's season),
``sheet`` (the evening's sheet, the settlement, the jeton counts) and ``setup``. Each table's
rows come from a selector, so a page costs a fixed number of queries."""
