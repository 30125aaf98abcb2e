-- Claims a scheduled slot of the job whose live lock the caller holds: only if the slot is later than the job's last
-- claimed slot, or (at least once) the same slot whose run never finished, claimed by an earlier token, run once.
-- KEYS[1] lock hash, KEYS[2] slot hash (slot_at, slot_token, slot_state R|D, slot_runs; no expiry), KEYS[3] runs list
-- (newest first: 'slot|run|token|started|finished|outcome|owner', the last ARGV[4]); ARGV[1] owner, ARGV[2] slot
-- ms, ARGV[3] '1' to run an unfinished slot again, ARGV[4] how many runs the list keeps, ARGV[5] how many ms ahead
-- of the server's clock a slot may be claimed.
-- Returns {0} when the caller holds no live lock, {-2, now ms} when the slot is later than the server's clock plus
-- ARGV[5], {-1, now ms} when the slot is not the caller's to run, else {1, run, previous slot ms or -1, 1 when the
-- previous run never finished else 0, previous token or 0, now ms}. A claim made again by the lease that made it
-- answers what the first one found, read from the runs list.
local refused = wrong_types(KEYS, {'hash', 'hash', 'list'})
if refused then
  return refused
end
local now = now_ms()
local held = live_lock(KEYS[1], now)
if not held or held[1] ~= ARGV[1] then
  return {0}
end
local token = tonumber(held[2])
local state = redis.call('HMGET', KEYS[2], 'slot_at', 'slot_token', 'slot_state', 'slot_runs')
local slot_at, slot_token, slot_state, runs = tonumber(state[1]), tonumber(state[2]), state[3], tonumber(state[4]) or 0
local slot = tonumber(ARGV[2])
if slot > now + tonumber(ARGV[5]) then
  return {-2, int(now)}
end
local own = slot_at == slot and slot_token == token and slot_state ~= 'D' and runs >= 1
local run
if not slot_at or slot_at < slot then
  run = 1
elseif own then
  run = runs
elseif ARGV[3] == '1' and slot_at == slot and slot_state == 'R' and slot_token and slot_token < token and runs < 2 then
  run = runs + 1
else
  return {-1, int(now)}
end
if own then
  for _, entry in ipairs(redis.call('LRANGE', KEYS[3], 0, -1)) do
    local s, t, outcome = string.match(entry, '^([^|]*)|[^|]*|([^|]*)|[^|]*|[^|]*|([^|]*)|')
    if tonumber(s) < slot then
      return {1, run, tonumber(s), outcome == 'CRASHED' and 1 or 0, tonumber(t), int(now)}
    end
  end
  return {1, run, -1, 0, 0, int(now)}
end
local unfinished = slot_at ~= nil and slot_state == 'R'
redis.call('HSET', KEYS[2], 'slot_at', int(slot), 'slot_token', int(token), 'slot_state', 'R', 'slot_runs', int(run))
redis.call('LPUSH', KEYS[3], table.concat({int(slot), int(run), int(token), int(now), '', 'RUNNING', ARGV[1]}, '|'))
redis.call('LTRIM', KEYS[3], 0, tonumber(ARGV[4]) - 1)
if unfinished then
  local entries = redis.call('LRANGE', KEYS[3], 0, -1)
  for i, entry in ipairs(entries) do
    local s, r, t, started, finished, outcome, owner = string.match(entry, '^([^|]*)|([^|]*)|([^|]*)|([^|]*)|([^|]*)|([^|]*)|(.*)$')
    if tonumber(s) == slot_at and tonumber(t) == slot_token and outcome == 'RUNNING' then
      redis.call('LSET', KEYS[3], i - 1, table.concat({s, r, t, started, finished, 'CRASHED', owner}, '|'))
    end
  end
end
return {1, run, slot_at or -1, unfinished and 1 or 0, slot_token or 0, int(now)}
