-- What every wrk script of the benchmarks counts and prints, loaded with
-- dofile after the script's own request: an answer that is not a successful
-- JSON-RPC result (no result, an error, or a tool error) is an error, as is
-- a failed request or a status other than 2xx, and `done` prints
-- `name<TAB>value` lines (rps, p50 and p99 in microseconds, errors,
-- requests) for the benchmark scripts to read. Each thread also gets
-- `first`, the start of a range of request ids of its own, for scripts
-- whose requests must not share an id.
local threads = {}

function setup(thread)
    table.insert(threads, thread)
    thread:set("first", #threads * 1000000000)
end

-- A status other than 2xx is counted by wrk itself; a 2xx answer is
-- looked into, so that no request counts twice.
function response(status, headers, body)
    if status < 200 or status > 299 then return end
    if not body:find('"result":{', 1, true) or body:find('"error":{', 1, true)
        or body:find('"isError":true', 1, true) then
        rpc_errors = rpc_errors + 1
    end
end

function done(summary, latency, requests)
    local rpc = 0
    for _, thread in ipairs(threads) do rpc = rpc + (thread:get("rpc_errors") or 0) end
    local e = summary.errors
    io.write(string.format("rps\t%.1f\n", summary.requests / (summary.duration / 1e6)))
    io.write(string.format("p50\t%.0f\n", latency:percentile(50) * 1000))
    io.write(string.format("p99\t%.0f\n", latency:percentile(99) * 1000))
    io.write(string.format("errors\t%d\n", e.connect + e.read + e.write + e.timeout + e.status + rpc))
    io.write(string.format("requests\t%d\n", summary.requests))
end
