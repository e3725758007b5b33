-- bench/journeys.sh's journey in wrk: sign in (POST) → the list with the token → the first order's detail, each
-- answer's body read (wrk only hands bodies to a script that has response()) for what the next step needs. wrk's
-- Lua keeps state per thread, not per connection: a thread's connections take the steps in turn, so one
-- connection's consecutive requests are not one user's journey, though every request carries the last token seen.
local step, token, first, signin = 0, "", "17", nil

function request()
  step = step % 3 + 1
  -- Formatted at the first request, not as the script loads: only then does wrk.format know the Host header.
  if step == 1 then
    signin = signin or wrk.format("POST", "/signin", { ["Content-Type"] = "application/json" }, '{"user":"u","password":"secret"}')
    return signin
  end
  local auth = { ["Authorization"] = "Bearer " .. token }
  if step == 2 then return wrk.format("GET", "/orders", auth) end
  return wrk.format("GET", "/orders/" .. first, auth)
end

function response(status, headers, body)
  local t = body:match('"token":"([^"]+)"')
  if t then token = t end
  local id = body:match('"items":%[{"id":(%d+)')
  if id then first = id end
end
