-- wrk script for `make bench` (.ci/bench.sh). One connection per wrk thread (-t N -c N).
-- Arguments after `--`: expected status, mode ("get", "post" or "form"), Cookie header ("" for
-- none; several separated by "|": thread i sends the i-th, one session per thread),
-- CSRF token,
-- for "post": comma-separated paths (one assessment per thread), their current versions,
-- and the form body; for "form": the form body, posted as it is to the URL (the peer).
-- A valid wizard POST bumps the assessment's optimistic-lock version by one, so each thread
-- owns one assessment and counts its version up after every 302; on anything else it reads
-- the version the page shows. Every status other than the expected one counts as an error.
local threads = {}
local count = 0

function setup(thread)
  count = count + 1
  thread:set("index", count)
  table.insert(threads, thread)
end

local function split(s, sep)
  local out = {}
  for part in string.gmatch(s, "([^" .. sep .. "]+)") do table.insert(out, part) end
  return out
end

function init(args)
  expected = tonumber(args[1])
  mode = args[2]
  wrong = 0
  if args[3] ~= "" then
    local cookies = split(args[3], "|")
    wrk.headers["Cookie"] = cookies[((index - 1) % #cookies) + 1]
  end
  if mode == "form" then
    wrk.method = "POST"
    wrk.headers["X-CSRFToken"] = args[4]
    wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
    local req = wrk.format("POST", nil, nil, args[5])
    request = function() return req end
  end
  if mode == "post" then
    wrk.method = "POST"
    wrk.headers["X-CSRFToken"] = args[4]
    wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
    local paths, versions = split(args[5], ","), split(args[6], ",")
    post_path = paths[index]
    version = tonumber(versions[index])
    body = args[7]
    request = function()
      return wrk.format("POST", post_path, nil, body .. "&version=" .. version)
    end
  end
end

function response(status, headers, body)
  if status ~= expected then wrong = wrong + 1 end
  if mode == "post" then
    if status == 302 then
      version = version + 1
    elseif body then
      local seen = string.match(body, 'name="version" value="(%d+)"')
        or string.match(body, 'value="(%d+)"[^>]*name="version"')
      if seen then version = tonumber(seen) end
    end
  end
end

function done(summary, latency, requests)
  local bad = 0
  for _, thread in ipairs(threads) do bad = bad + (thread:get("wrong") or 0) end
  local e = summary.errors
  io.write(string.format(
    'BENCH {"requests": %d, "duration_us": %d, "errors": %d, "socket_errors": %d, ' ..
    '"p50_us": %d, "p95_us": %d, "p99_us": %d, "max_us": %d}\n',
    summary.requests, summary.duration, bad + e.connect + e.read + e.write + e.timeout,
    e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max))
end
