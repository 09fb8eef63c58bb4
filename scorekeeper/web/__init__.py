"""Server-rendered pages: the game list, a new game, the game page, the scoresheet."""

from flask import Blueprint

bp = Blueprint("web", __name__)

from . import players_routes, routes, transfer_routes  # noqa: E402,F401
from .presenters import contract_mark  # noqa: E402

bp.add_app_template_global(contract_mark, "contract_mark")
