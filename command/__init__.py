"""Command and intelligence's home (issue 28): officers, command bubbles, research craft,
diplomats and their missions as one power sees them, and their page and API. ``selectors``
reads what the order forms and the API offer, ``pages`` the Command page, ``services`` writes
the organiser's outcome of a diplomatic mission (R-8.4a). The models stay in
``powers.models.command``."""
