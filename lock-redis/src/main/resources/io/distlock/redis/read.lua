-- Reads the live locks of some lock hashes, as of one reading of the server's clock.
-- KEYS lock hashes. Returns one entry per key, in order: {resource, owner, token, acquired_ms, expires_ms}, or an
-- empty entry when the key holds no live lock.
local refused = wrong_types(KEYS, 'hash')
if refused then
  return refused
end
local now = now_ms()
local reply = {}
for i, key in ipairs(KEYS) do
  local entry = {}
  if live_lock(key, now) then
    entry = redis.call('HMGET', key, 'resource', 'owner', 'token', 'acquired_ms', 'expires_ms')
  end
  reply[i] = entry
end
return reply
