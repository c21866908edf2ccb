"""The JSON API (token or session auth) and its OpenAPI schema and docs page."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from command import api as command_api
from diplomacy import api as diplomacy_api
from economy import api as economy_api
from fleet import battle_api, pact_api
from notices import api as notices_api
from powers import api as powers_api
from trade import api as trade_api

C = "campaigns/<int:campaign_id>/"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("turn/", notices_api.MyTurn.as_view(), name="api-turn"),
    path("campaigns/", powers_api.CampaignList.as_view(), name="api-campaigns"),
    path(C, powers_api.CampaignDetail.as_view(), name="api-campaign"),
    path(C + "turn/", notices_api.CampaignTurn.as_view(), name="api-campaign-turn"),
    path(C + "power/", powers_api.MyPower.as_view(), name="api-power"),
    path(C + "systems/", powers_api.MySystems.as_view(), name="api-systems"),
    path(C + "designs/", powers_api.MyDesigns.as_view(), name="api-designs"),
    path(C + "craft/", powers_api.MyCraft.as_view(), name="api-craft"),
    path(C + "groups/", powers_api.MyGroups.as_view(), name="api-groups"),
    path(C + "builds/", powers_api.MyBuilds.as_view(), name="api-builds"),
    path(C + "hubs/", trade_api.MyHubs.as_view(), name="api-hubs"),
    path(C + "rounds/", economy_api.Rounds.as_view(), name="api-rounds"),
    path(C + "sheet/", economy_api.Sheet.as_view(), name="api-sheet"),
    path(C + "sheet/submit/", economy_api.SubmitSheet.as_view(), name="api-submit"),
    path(
        C + "sheet/withdraw/",
        economy_api.SubmitSheet.as_view(withdraw=True),
        name="api-withdraw",
    ),
    path(C + "orders/", economy_api.Orders.as_view(), name="api-orders"),
    path(C + "orders/<int:position>/", economy_api.OrderDetail.as_view(), name="api-order"),
    path(C + "orders/<int:position>/move/", economy_api.MoveOrder.as_view(), name="api-move"),
    path(C + "projection/", economy_api.Projection.as_view(), name="api-projection"),
    path(C + "reports/<int:number>/", economy_api.Report.as_view(), name="api-report"),
    path(C + "ledger/", economy_api.Ledger.as_view(), name="api-ledger"),
    path(C + "battles/", battle_api.Battles.as_view(), name="api-battles"),
    path(C + "battles/roster/", battle_api.BattleRoster.as_view(), name="api-battle-roster"),
    path(C + "battles/<str:key>/", battle_api.BattleAnswer.as_view(), name="api-battle"),
    path(C + "pacts/", pact_api.Pacts.as_view(), name="api-pacts"),
    path(C + "pacts/<str:key>/", pact_api.PactAnswer.as_view(), name="api-pact"),
    path(C + "officers/", command_api.MyOfficers.as_view(), name="api-officers"),
    path(C + "bubbles/", command_api.MyBubbles.as_view(), name="api-bubbles"),
    path(C + "diplomats/", command_api.MyDiplomats.as_view(), name="api-diplomats"),
    path(C + "missions/", command_api.MyMissions.as_view(), name="api-missions"),
    path(C + "research-craft/", command_api.MyResearchCraft.as_view(), name="api-research"),
    path(C + "special-interest/", command_api.SpecialInterest.as_view(), name="api-interest"),
    # issue 31: conversations and messages
    path(C + "conversations/", diplomacy_api.Conversations.as_view(), name="api-conversations"),
    path(
        C + "conversations/<int:conversation_id>/messages/",
        diplomacy_api.ConversationMessages.as_view(),
        name="api-conversation",
    ),
    path("", include("trade.api_urls")),
]
