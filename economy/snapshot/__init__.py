"""The one mapping between the database and the engine's ``State`` (contracts §1), one module
a side: ``load.py`` reads a campaign into the engine's dataclasses in a fixed number of queries,
``save.py`` writes a ``State`` back (in the caller's transaction) through the bulk row writing
of ``rows.py``, and ``cache.py`` keeps each process's parsed live round states. Command and
intelligence (``command.py``) and the pacts and battle records (``pacts.py``) are loaded and
saved in modules of their own. JSON is the codec's business (``economy.engine.codec``):
``export_state`` / ``write_state`` only compose it with a side, for round records, exports and
cases. A new contract field is added to both sides (and once in the codec).

The names the other apps use are given here; the package's own modules import from each
other by name."""

from economy.snapshot.cache import RoundState, forget_round_states, round_state
from economy.snapshot.load import export_state, load_bubbles, load_power_fleet, load_state
from economy.snapshot.pacts import pact_fleet
from economy.snapshot.save import save_state, write_state

__all__ = [
    "RoundState",
    "export_state",
    "forget_round_states",
    "load_bubbles",
    "load_power_fleet",
    "load_state",
    "pact_fleet",
    "round_state",
    "save_state",
    "write_state",
]
