-- Renews a batch of leases in one step: each lock hash whose live lock belongs to the given owner gets TTL from now.
-- KEYS lock hashes; ARGV[1] TTL in ms, ARGV[i + 1] the owner of KEYS[i].
-- Returns {expires_ms, token_1, acquired_ms_1, token_2, acquired_ms_2, ...}, with token 0 where the lease was not
-- renewed (gone, expired or another owner's).
local refused = wrong_types(KEYS, 'hash')
if refused then
  return refused
end
local now = now_ms()
local expires = now + tonumber(ARGV[1])
local reply = {expires}
for i, key in ipairs(KEYS) do
  local held = live_lock(key, now)
  if held and held[1] == ARGV[i + 1] then
    set_end(key, expires)
    reply[#reply + 1] = tonumber(held[2])
    reply[#reply + 1] = tonumber(held[3])
  else
    reply[#reply + 1] = 0
    reply[#reply + 1] = 0
  end
end
return reply
