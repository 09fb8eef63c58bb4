"""Server-rendered pages, one ``web`` blueprint whose views live in a package per area.

- ``games``: the game list, a new game, the game page and its writes, the scoresheet;
- ``people``: rankings, the players, a player's page (rename, merge), the administrator's sign-in;
- ``transfer``: export (JSON, CSV) and import.

One blueprint keeps every endpoint ``web.<view>`` whichever package holds the view.
"""

from flask import Blueprint
from flask.blueprints import BlueprintSetupState

bp = Blueprint("web", __name__)

from ..rules import TRICKS_PER_DEAL  # noqa: E402
from . import health, language  # noqa: E402,F401
from . import offline as service_worker  # noqa: E402,F401
from .cached import ui_strings  # noqa: E402
from .games import corrections as games_corrections  # noqa: E402,F401
from .games import deals as games_deals  # noqa: E402,F401
from .games import entry as games_entry  # noqa: E402,F401
from .games import pencil as games_pencil  # noqa: E402,F401
from .games import routes as games_routes  # noqa: E402,F401
from .games.marks import SUITS, contract_mark  # noqa: E402
from .games.parts import part_grid, part_heading  # noqa: E402
from .nights import routes as nights_routes  # noqa: E402,F401
from .nights import seasons as nights_seasons  # noqa: E402,F401
from .people import admin as people_admin  # noqa: E402,F401
from .people import routes as people_routes  # noqa: E402,F401
from .transfer import routes as transfer_routes  # noqa: E402,F401

bp.add_app_template_global(contract_mark, "contract_mark")
bp.add_app_template_global(part_grid, "part_grid")  # a game in parts: its grid and headings
bp.add_app_template_global(part_heading, "part_heading")
bp.add_app_template_global(ui_strings, "ui_strings")  # every page's texts for its scripts


@bp.record_once
def game_constants(state: BlueprintSetupState) -> None:
    """Numbers the rules fix, for every template and macro (they never write them out themselves)."""
    state.app.jinja_env.globals["tricks_per_deal"] = TRICKS_PER_DEAL
    state.app.jinja_env.globals["suits"] = SUITS
