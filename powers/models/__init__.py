"""The state of contracts §1 as database rows, one module for each part: the campaign and its
players (``campaign``), the map and star systems (``world``), the fleet (``fleet``), pacts and
battle records (``pacts``), command and intelligence (``command``). Every model is importable
from here."""

from .base import *  # noqa: F403
from .campaign import *  # noqa: F403
from .command import *  # noqa: F403
from .fleet import *  # noqa: F403
from .pacts import *  # noqa: F403
from .world import *  # noqa: F403
