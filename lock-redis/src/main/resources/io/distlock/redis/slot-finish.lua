-- Records how the run of a claimed slot ended; only the run that claimed it (its token) changes anything.
-- KEYS[1] slot hash, KEYS[2] runs list; ARGV[1] slot ms, ARGV[2] token, ARGV[3] outcome.
-- Returns 1 when the slot was the caller's, else 0.
local refused = wrong_types(KEYS, {'hash', 'list'})
if refused then
  return refused
end
local now = now_ms()
local slot, token = tonumber(ARGV[1]), tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'slot_at', 'slot_token')
local mine = tonumber(state[1]) == slot and tonumber(state[2]) == token
if mine then
  redis.call('HSET', KEYS[1], 'slot_state', 'D')
end
local entries = redis.call('LRANGE', KEYS[2], 0, -1)
for i, entry in ipairs(entries) do
  local s, r, t, started, finished, outcome, owner = string.match(entry, '^([^|]*)|([^|]*)|([^|]*)|([^|]*)|([^|]*)|([^|]*)|(.*)$')
  if tonumber(s) == slot and tonumber(t) == token then
    redis.call('LSET', KEYS[2], i - 1, table.concat({s, r, t, started, int(now), ARGV[3], owner}, '|'))
  end
end
return mine and 1 or 0
