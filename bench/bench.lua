-- wrk script for bench/run.py.  BENCH_MODE says what each request is:
--
--   get     the URL on wrk's command line (a club page, /healthz, the bare INSERT with BENCH_POST=1)
--   poll    a watcher's poll: a table's game page with the ETag it was last given (If-None-Match)
--   page    a table's game page opened afresh (no ETag)
--   mix     the phones' mix: of every 50 requests 45 polls, 2 game pages, and home, the rankings
--           and BENCH_PLAYER's page once each
--   record  the next deal of games made beforehand, through the JSON API (BENCH_GAMES)
--
-- BENCH_TABLES is a file of "path etag" lines, one a table, that the writer rewrites after each
-- deal; a thread reads it again every 25 requests, so its watchers learn a new ETag soon after
-- a write, having been answered 200 meanwhile (as the phones watching that table are).
--
-- BENCH_GAMES: "id<TAB>edit key<TAB>3 names" a line.  wrk does not say which connection an
-- answer belongs to, so a thread plays its games in step: deal 1 of its first BENCH_POOL games,
-- then deal 2 of each, ...; a game's next deal goes out BENCH_POOL requests after its last.
-- BENCH_DEALS: the 18 deal bodies of a legal game, the players written $1, $2 and $3.
--
-- done() prints one line "BENCH_JSON {...}" for run.py.

local mode = os.getenv("BENCH_MODE") or "get"
local threads = {}
local sent = 0
s200, s304, sother, codes = 0, 0, 0, ""

if os.getenv("BENCH_POST") then
  wrk.method = "POST"
  wrk.body = ""
end

function setup(thread)
  table.insert(threads, thread)
  thread:set("thread_number", #threads)
end

local function with(extra)
  local headers = {}
  for name, value in pairs(wrk.headers) do headers[name] = value end
  for name, value in pairs(extra or {}) do headers[name] = value end
  return headers
end

local tables = {}
local function read_tables()
  local file = io.open(os.getenv("BENCH_TABLES") or "", "r")
  if not file then return end
  local fresh = {}
  for line in file:lines() do
    local path, etag = line:match("^(%S+) (.+)$")
    if path then table.insert(fresh, { path, etag }) end
  end
  file:close()
  if #fresh > 0 then tables = fresh end
end

local games, deals = {}, {}
local pool = tonumber(os.getenv("BENCH_POOL") or "128")

function init(args)
  if mode == "poll" or mode == "page" or mode == "mix" then
    read_tables()
  elseif mode == "record" then
    local threads_total = tonumber(os.getenv("BENCH_THREADS") or "2")
    local index = 0
    for line in io.lines(os.getenv("BENCH_GAMES")) do
      index = index + 1
      if index % threads_total == thread_number % threads_total then
        local id, key, a, b, c = line:match("^(%S+)\t(%S+)\t([^\t]+)\t([^\t]+)\t([^\t]+)$")
        table.insert(games, { "/api/v1/games/" .. id .. "/deals", "Bearer " .. key, { a, b, c } })
      end
    end
    for line in io.lines(os.getenv("BENCH_DEALS")) do table.insert(deals, line) end
  end
end

local turn = 0
local function next_table()
  turn = turn % #tables + 1
  return tables[turn]
end

local function poll()
  local t = next_table()
  return wrk.format("GET", t[1], with({ ["If-None-Match"] = t[2] }))
end

local function page()
  return wrk.format("GET", next_table()[1], with())
end

local club = { "/", "/rankings", os.getenv("BENCH_PLAYER") or "/" }

local checked = false

function request()
  -- wrk calls this once on its first thread to check the script, and sends nothing: not a turn.
  if thread_number == 1 and not checked then
    checked = true
    return wrk.format("GET", "/healthz")
  end
  sent = sent + 1
  if mode == "get" then
    return wrk.request()
  end
  if mode == "record" then
    local k = sent - 1
    local batch, step = math.floor(k / (pool * #deals)), k % (pool * #deals)
    local game = games[(batch * pool + step % pool) % #games + 1] -- past the last game: 409s, counted
    local body = deals[math.floor(step / pool) + 1]:gsub("%$(%d)", function(i) return game[3][tonumber(i)] end)
    local headers = with({ ["Content-Type"] = "application/json", ["Authorization"] = game[2] })
    return wrk.format("POST", game[1], headers, body)
  end
  if sent % 25 == 0 then read_tables() end
  if mode == "poll" then return poll() end
  if mode == "page" then return page() end
  local slot = sent % 50 -- mix
  if slot < 45 then return poll() end
  if slot < 47 then return page() end
  return wrk.format("GET", club[slot - 46], with())
end

function response(status, headers, body)
  if status == 200 or status == 201 then
    s200 = s200 + 1
  elseif status == 304 then
    s304 = s304 + 1
  else
    sother = sother + 1
    if sother <= 5 then codes = codes .. " " .. status .. " " .. body:sub(1, 80) end
  end
end

function done(summary, latency, requests)
  local ok, not_modified, other = 0, 0, 0
  for _, thread in ipairs(threads) do
    ok = ok + (thread:get("s200") or 0)
    not_modified = not_modified + (thread:get("s304") or 0)
    other = other + (thread:get("sother") or 0)
    if thread:get("codes") ~= "" then io.write("other answers:" .. thread:get("codes") .. "\n") end
  end
  local e = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests":%d,"duration_us":%d,'
      .. '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},'
      .. '"statuses":{"2xx":%d,"304":%d,"other":%d},"p50_us":%d,"p99_us":%d}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    ok, not_modified, other, latency:percentile(50), latency:percentile(99)
  ))
end
