"""A club on two app servers, one database and one Redis (``REDIS_URL``): a write through one is on
the other's next page view, and both count one budget of games a client may create.

Each server is gunicorn with two sync workers, as ``make serve`` runs it.  Redis is the one
``TEST_REDIS_URL`` names (``.ci/run`` starts it; a parallel worker takes the next database, see
``worker_redis_url``); without it these tests are skipped on a laptop and fail under CI.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pytest

from tests.conftest import worker_redis_url
from tests.reliability.conftest import LiveServer
from tests.reliability.test_live_concurrency import PLAYERS, new_game, play_deals

pytestmark = pytest.mark.slow

REDIS_URL = worker_redis_url()  # TEST_REDIS_URL's database, one per parallel worker


@pytest.fixture
def redis_url() -> Iterator[str]:
    """The test Redis database, emptied: the kept pages and the rate limits of the servers."""
    reason = ""
    if not REDIS_URL:
        reason = "TEST_REDIS_URL is not set"
    else:
        import redis

        client = redis.Redis.from_url(REDIS_URL)
        try:
            client.flushdb()
        except redis.RedisError as error:
            reason = f"no Redis at {REDIS_URL} ({error})"
        finally:
            client.close()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the Redis tests, but {reason}", pytrace=False)
        pytest.skip(f"Redis tests skipped: {reason}; .ci/run starts a Redis server")
    yield REDIS_URL


@pytest.fixture
def two_servers(
    start_server: Callable[..., LiveServer], redis_url: str
) -> Callable[..., tuple[LiveServer, LiveServer]]:
    def start(**env: str) -> tuple[LiveServer, LiveServer]:
        return (
            start_server(workers=2, REDIS_URL=redis_url, **env),
            start_server(workers=2, REDIS_URL=redis_url, **env),
        )

    return start


def pages(server: LiveServer, game_id: str) -> dict[str, str]:
    """The club's pages and the game's watcher page, each asked for twice (both workers may answer)."""
    seen: dict[str, str] = {}
    for url in ("/", "/rankings", f"/games/{game_id}"):
        answers = [server.request("GET", url) for _ in range(2)]
        assert [answer.status for answer in answers] == [200, 200], url
        assert answers[0].text == answers[1].text, url
        seen[url] = answers[0].text
    return seen


def test_a_deal_written_through_one_server_is_on_the_others_next_page(
    two_servers: Callable[..., tuple[LiveServer, LiveServer]], redis_url: str
) -> None:
    import redis

    first, second = two_servers()
    game_id, key = new_game(first)
    play_deals(first, game_id, key, 16)
    url = f"/games/{game_id}"
    before = pages(second, game_id)  # kept now, in Redis
    assert pages(second, game_id) == before
    with redis.Redis.from_url(redis_url) as kept:  # where the pages and their tags are
        assert kept.keys("scorekeeper:tag:*") and len(kept.keys("scorekeeper:*")) > 3
    assert "Ann" not in before["/rankings"]  # no finished game yet

    play_deals(first, game_id, key, 1)  # deal 17, through the other server
    after = pages(second, game_id)
    version = first.api("GET", f"/games/{game_id}").header("ETag").strip('"v')
    assert second.request("GET", url).header("ETag") == f'"v{version}-r-en"'
    assert after[url] != before[url] and after["/"] != before["/"]
    assert after["/rankings"] == before["/rankings"]  # a game in progress: the rankings stay
    assert after == pages(first, game_id)  # the same pages on both

    play_deals(first, game_id, key, 1)  # the last deal: the game is over
    finished = pages(second, game_id)
    assert all(name in finished["/rankings"] for name in PLAYERS), finished["/rankings"]
    assert finished == pages(first, game_id)


def test_both_servers_count_one_budget_of_new_games(
    two_servers: Callable[..., tuple[LiveServer, LiveServer]],
) -> None:
    first, second = two_servers(GAME_CREATE_RATE_LIMIT="3 per minute")
    game = {"players": PLAYERS, "first_dealer": "Ann"}
    statuses = [server.api("POST", "/games", game).status for server in (first, second, first)]
    assert statuses == [201, 201, 201]
    for server in (second, first):
        refused = server.api("POST", "/games", game)
        assert refused.status == 429, refused.text
        assert refused.json["error"]["code"] == "rate_limited"
