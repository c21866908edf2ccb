from django.urls import path

from fleet import battle_views, pact_views, views

P = "campaigns/<int:campaign_id>/powers/<str:power_key>/"

urlpatterns = [
    path(P + "fleet/", views.fleet, name="fleet"),
    path(P + "fleet/design/", views.register_design, name="fleet-design"),
    path(P + "fleet/design/check/", views.check_design, name="fleet-design-check"),
    path(P + "battles/", battle_views.battles, name="battles"),
    path(P + "battles/roster/", battle_views.battle_roster, name="battle-roster"),
    path(P + "battles/enter/", battle_views.battle_enter, name="battle-enter"),
    path(P + "battles/act/", battle_views.battle_act, name="battle-act"),
    path(P + "pacts/propose/", pact_views.pact_propose, name="pact-propose"),
    path(P + "pacts/act/", pact_views.pact_act, name="pact-act"),
]
