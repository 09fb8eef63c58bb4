-- wrk script for bench/run.py: one script for every route, so every route is driven the same way.
--
-- BENCH_MODE=get     GET the URL given on wrk's command line (headers with -H).
-- BENCH_MODE=fresh   GET the URL with "fresh=<thread>-<n>" added, a new query every time: a page
--                    kept per URL is never found, so each request renders it.
-- BENCH_MODE=insert  POST to it with an empty body (the bare single-row INSERT yardstick).
-- BENCH_MODE=record  play whole games through the API: POST /api/v1/games, then each deal of
--                    BENCH_DEALS_FILE (first line: the create body; then one deal body a line)
--                    until the game ends, then a new game.  Needs one connection per thread
--                    (-t N -c N): a thread's game state is the state of its one connection.
--
-- done() prints one line "BENCH_JSON {...}" that run.py reads.

local mode = os.getenv("BENCH_MODE") or "get"

if mode == "insert" then
  wrk.method = "POST"
  wrk.body = ""
end

-- Thread state for "record" (each thread has its own Lua state).
local create_body
local deal_bodies = {}
local game_path = nil
local auth = nil
local next_deal = 0
games, deals, failures = 0, 0, 0

local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("thread_number", #threads)
end

-- wrk.init calls this, then builds the static request (get/insert) from wrk.method and wrk.body.
function init(args)
  if mode == "record" then
    for line in io.lines(os.getenv("BENCH_DEALS_FILE")) do
      if create_body == nil then
        create_body = line
      else
        table.insert(deal_bodies, line)
      end
    end
  end
end

if mode == "fresh" then
  local asked = 0

  function request()
    asked = asked + 1
    local separator = string.find(wrk.path, "?", 1, true) and "&" or "?"
    return wrk.format("GET", wrk.path .. separator .. "fresh=" .. tostring(thread_number) .. "-" .. asked)
  end
end

if mode == "record" then
  local json = { ["Content-Type"] = "application/json", ["Accept-Encoding"] = "gzip" }

  function request()
    if game_path == nil then
      return wrk.format("POST", "/api/v1/games", json, create_body)
    end
    local headers = {
      ["Content-Type"] = "application/json", ["Accept-Encoding"] = "gzip", ["Authorization"] = auth
    }
    return wrk.format("POST", game_path, headers, deal_bodies[next_deal])
  end

  function response(status, headers, body)
    if status ~= 201 then
      failures = failures + 1
      game_path = nil -- start over with a new game
      return
    end
    if game_path == nil then
      local id = body:match('"id":"([^"]+)"')
      auth = "Bearer " .. body:match('"edit_key":"([^"]+)"')
      game_path = "/api/v1/games/" .. id .. "/deals"
      next_deal = 1
      games = games + 1
    else
      deals = deals + 1
      next_deal = next_deal + 1
      if next_deal > #deal_bodies then
        game_path = nil
      end
    end
  end
end

function done(summary, latency, requests)
  local g, d, f = 0, 0, 0
  for _, thread in ipairs(threads) do
    g = g + (thread:get("games") or 0)
    d = d + (thread:get("deals") or 0)
    f = f + (thread:get("failures") or 0)
  end
  local e = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests":%d,"duration_us":%d,"bytes":%d,'
      .. '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},'
      .. '"latency_us":{"mean":%.1f,"p50":%d,"p90":%d,"p99":%d,"max":%d},'
      .. '"games":%d,"deals":%d,"failures":%d}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    g, d, f
  ))
end
