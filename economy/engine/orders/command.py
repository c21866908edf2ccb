"""The command and intelligence order types: officers, command bubbles and their posts,
patrols, researchers and diplomats (Support §3.3, §4.4, §5; R-8). One declaration each
(``spec.OrderSpec``)."""

from __future__ import annotations

from ..command_state import MISSION_KINDS
from .kinds import (
    AT_LEAST_ZERO,
    BUBBLE,
    CREWED_GROUP,
    DIPLOMAT,
    FINISHED_CRAFT,
    FLAG,
    GRADE,
    GROUP,
    HEX_,
    OFFICER,
    POSITIVE,
    SYSTEM,
    TARGET_POWER,
    Draw,
    Field,
    choice,
    new_id,
    text,
)
from .spec import OPTIONAL, REQUIRED, OrderSpec, shown, with_parts

SPECS = (
    OrderSpec(
        "commission",
        "Commission an officer",
        "Support 5.1, R-8.2",
        "support.5.1",
        (
            new_id("officer"),
            Field("rank", "Rank", POSITIVE, REQUIRED),
            Field("grade", "Grade (1-10)", GRADE, REQUIRED),
            Field("name", "Name", text(100), OPTIONAL, "optional"),
        ),
        (
            "Commissions an officer: rank × 50 Gal and rank × 50 + (grade − 1) × 50 TP from"
            " your bank, then rank Gal of pay every round from the next one."
        ),
        lambda v: with_parts(
            "Commissions officer {shown}, rank {rank}, grade {grade}",
            shown(v),
        ),
        pays=(
            "All or nothing when the round resolves: a bank short of either refuses the commission."
        ),
        creates="officer",
    ),
    OrderSpec(
        "promote",
        "Promote an officer",
        "Support 5.1, R-8.2",
        "support.5.1",
        (
            Field("officer", "Officer", OFFICER, REQUIRED),
            Field("rank", "New rank", POSITIVE, OPTIONAL, "optional"),
            Field("grade", "New grade", GRADE, OPTIONAL, "optional"),
            Field("tp", "Pay in TP", FLAG, OPTIONAL, "instead of a roll"),
        ),
        (
            "Raises an officer's rank or grade, paying the difference: 50 Gal a rank and 50"
            " TP a rank or grade. Promoting by rank without the TP costs only the Gal and "
            "lowers the grade by one a rank instead; the officer's pay rises with its rank."
        ),
        lambda v: with_parts(
            "Promotes {officer}", v, ("rank", " to rank {rank}"), ("grade", ", grade {grade}")
        ),
        pays="Paid from your bank when the round resolves; nothing is refunded.",
    ),
    OrderSpec(
        "demote",
        "Demote an officer",
        "Support 5.1, R-8.2",
        "support.5.1",
        (
            Field("officer", "Officer", OFFICER, REQUIRED),
            Field("rank", "New rank", POSITIVE, REQUIRED),
        ),
        (
            "Lowers an officer's rank and its pay. No refund, and the officer's rolls take "
            "−1 per rank demoted for 9 − grade rounds (none at grade 9 or 10)."
        ),
        "Demotes {officer} to rank {rank}",
        pays="Free; the penalty is shown on the Command page until its last round.",
    ),
    OrderSpec(
        "dismiss",
        "Dismiss an officer",
        "Support 5.1, R-8.2",
        "support.5.1",
        (Field("officer", "Officer", OFFICER, REQUIRED),),
        (
            "Ends an officer's service and pay: no refund; a post the officer commanded "
            "needs another officer."
        ),
        "Dismisses {officer}",
        pays="Free.",
    ),
    OrderSpec(
        "assign_officer",
        "Put an officer aboard a craft or in command of a group",
        "Support 5.1, R-8.2",
        "support.5.1",
        (
            Field("officer", "Officer", OFFICER, REQUIRED),
            Field("craft", "Aboard craft", FINISHED_CRAFT, OPTIONAL, "or a group"),
            Field("group", "Or command group", CREWED_GROUP),
        ),
        (
            "Puts an officer aboard a craft (at most rank × 50 points; rank 14 and up needs"
            " a flag bridge) or in command of a group, or back to the reserve. Free."
        ),
        lambda v: with_parts(
            "Assigns {officer}", v, ("craft", " aboard {craft}"), ("group", " to command {group}")
        ),
    ),
    OrderSpec(
        "bubble_hq",
        "Set up a command bubble's HQ",
        "Support 5.2, R-8.3",
        "support.5.2",
        (
            new_id("bubble"),
            Field("hex", "HQ hex", HEX_, REQUIRED, "XXYY"),
            Field("officer", "Officer", OFFICER, REQUIRED),
        ),
        (
            "Sets up a command bubble's HQ at a system you hold or your military static, "
            "with an officer in command: 30 Ore. It covers the hexes within the officer's "
            "grade and may not overlap another bubble."
        ),
        "Sets up the HQ of bubble {id} at {hex} under {officer}",
        pays=("The Ore comes from the hub pool covering the HQ, else the stockpile of its system."),
        creates="bubble",
    ),
    OrderSpec(
        "bubble_outpost",
        "Add an outpost to a bubble",
        "Support 5.2.1, R-8.3",
        "support.5.2",
        (
            Field("bubble", "Bubble", BUBBLE, REQUIRED),
            Field("hex", "Outpost hex", HEX_, REQUIRED, "XXYY"),
            Field("officer", "Officer", OFFICER, REQUIRED),
        ),
        (
            "Adds an outpost within the HQ's radius, commanded by an officer junior to the "
            "HQ's: 15 Ore."
        ),
        "Adds an outpost to {bubble} at {hex} under {officer}",
        pays=("The Ore comes from the hub pool covering the HQ, else the stockpile of its system."),
    ),
    OrderSpec(
        "bubble_sensor",
        "Place a sensor",
        "Support 5.2.2, R-8.3",
        "support.5.2",
        (
            Field("bubble", "Bubble", BUBBLE, REQUIRED),
            Field("post", "Post (the HQ's or an outpost's hex)", HEX_, REQUIRED, "XXYY"),
            Field("hex", "Sensor hex", HEX_, REQUIRED, "XXYY"),
        ),
        (
            "Places a sensor within a post's radius (at most rank + grade of its officer "
            "per post): 10 Ore, then 5 Ore a round to keep, or it is removed."
        ),
        "Places a sensor of {bubble} at {hex}, from the post at {post}",
        pays=(
            "The Ore, to place and to keep, comes from the hub pool covering the HQ, else "
            "the stockpile of its system."
        ),
    ),
    OrderSpec(
        "remove_sensor",
        "Remove a sensor",
        "Support 5.2.2, R-8.3",
        "support.5.2",
        (
            Field("bubble", "Bubble", BUBBLE, REQUIRED),
            Field("post", "Post (the HQ's or an outpost's hex)", HEX_, REQUIRED, "XXYY"),
            Field("hex", "Sensor hex", HEX_, REQUIRED, "XXYY"),
        ),
        (
            "Takes one of a post's sensors away: it pays no upkeep from this round, and its "
            "place under the post's rank + grade is free for a sensor placed after it. Free; "
            "nothing is refunded."
        ),
        "Removes the sensor of {bubble} at {hex}, from the post at {post}",
    ),
    OrderSpec(
        "post_officer",
        "Post an officer to a bubble's HQ or outpost",
        "Support 5.2, R-8.3a",
        "support.5.2",
        (
            Field("bubble", "Bubble", BUBBLE, REQUIRED),
            Field("post", "Post (the HQ's or an outpost's hex)", HEX_, REQUIRED, "XXYY"),
            Field("officer", "Officer", OFFICER, REQUIRED),
        ),
        (
            "Gives a bubble's HQ or outpost a new commanding officer, whose grade becomes "
            "the post's radius; the one replaced goes to the reserve. An officer of the "
            "same bubble moves within its own radius. Free."
        ),
        "Posts {officer} to the post of {bubble} at {post}",
    ),
    OrderSpec(
        "patrol",
        "Patrol from a bubble's post",
        "Support 5.2.4, R-8.3",
        "support.5.2",
        (
            Field("group", "Group", GROUP, REQUIRED),
            Field("bubble", "Bubble", BUBBLE, REQUIRED),
            Field("post", "Post (the HQ's or an outpost's hex)", HEX_, REQUIRED, "XXYY"),
        ),
        (
            "Sends a group on Hold-Patrol to patrol from a bubble's post (at most its "
            "officer's rank of groups per post). Free."
        ),
        "Sends {group} on patrol from the post of {bubble} at {post}",
    ),
    OrderSpec(
        "researchers",
        "Embark researchers",
        "Support 4.3.2, R-8.1",
        "support.3.3",
        (
            Field("craft", "Aboard craft", FINISHED_CRAFT, REQUIRED),
            Field("pl", "PL", POSITIVE, REQUIRED),
        ),
        (
            "Puts PL aboard a craft's passenger space as researchers, from PL reaching its "
            "hex. A group on Hold-Research earns, per craft, floor(research ÷ 10) × "
            "floor(researchers ÷ 25) × a factor TP: 0 in a system, 1 in deep space, 2 in a "
            "dust cloud, 5 in an active Area of Special Interest."
        ),
        "Embarks {pl} PL of researchers aboard {craft}",
        pays="Costs the PL put aboard, all or nothing; they stay aboard until moved.",
    ),
    OrderSpec(
        "appoint_diplomat",
        "Appoint a diplomat",
        "Support 4.4.1, R-8.4",
        "support.4.4",
        (
            new_id("diplomat"),
            Field("craft", "Aboard craft", FINISHED_CRAFT, REQUIRED),
            Field("name", "Name", text(100), OPTIONAL, "optional"),
        ),
        (
            "Appoints a diplomat aboard one of your craft. Free; a group carrying one may "
            "engage only in defence."
        ),
        lambda v: with_parts("Appoints diplomat {shown} aboard {craft}", shown(v)),
        creates="diplomat",
    ),
    OrderSpec(
        "recall_diplomat",
        "Recall a diplomat",
        "Support 4.4.1, R-8.4",
        "support.4.4",
        (Field("diplomat", "Diplomat", DIPLOMAT, REQUIRED),),
        ("Recalls a diplomat: it leaves the campaign, and its group may engage again. Free."),
        "Recalls {diplomat}",
    ),
    OrderSpec(
        "diplomatic_mission",
        "Send a diplomat on a mission",
        "Support 4.4, R-8.4",
        "support.4.4",
        (
            new_id("mission"),
            Field("diplomat", "Diplomat", DIPLOMAT, REQUIRED),
            Field("target", "Target power", TARGET_POWER, REQUIRED),
            Field("kind", "Mission", choice(*MISSION_KINDS), REQUIRED),
            Field("system", "System", SYSTEM, OPTIONAL, "optional"),
            Field("gal", "Gal spent", AT_LEAST_ZERO, OPTIONAL, "optional", draws=Draw("gal")),
            Field("tp", "TP spent", AT_LEAST_ZERO, OPTIONAL, "optional", draws=Draw("tp")),
            Field("pl", "PL spent", AT_LEAST_ZERO, OPTIONAL, "optional"),
        ),
        (
            "Sends a diplomat at another power's system on a mission (one per target "
            "Homeworld or Primary a round); the Gal, TP and PL you choose to spend are "
            "charged when the round resolves, and the admin writes the outcome, applied at "
            "the start of the next resolution. The target learns of it only then."
        ),
        "Sends {diplomat} on a {kind} mission to {target}",
        pays=(
            "The Gal and TP come from your bank and the PL from where it reaches the "
            "diplomat's craft; nothing comes back whatever the outcome."
        ),
    ),
)
