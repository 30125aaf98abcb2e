-- Takes the lock if no live lock exists, or renews it when the caller already holds it (same token, same
-- acquisition time). A new owner draws its token from the counter in the same step, so tokens follow the order
-- of acquisitions.
-- KEYS[1] lock hash, KEYS[2] token counter; ARGV[1] resource, ARGV[2] owner, ARGV[3] TTL in ms.
-- Returns {1, token, acquired_ms, expires_ms} when the caller holds the lock, {0} when another owner does.
local lock, counter = KEYS[1], KEYS[2]
local refused = wrong_types(KEYS, {'hash', 'string'})
if refused then
  return refused
end
local now = now_ms()
local expires = now + tonumber(ARGV[3])
local held = live_lock(lock, now)
if held then
  if held[1] ~= ARGV[2] then
    return {0}
  end
  set_end(lock, expires)
  return {1, tonumber(held[2]), tonumber(held[3]), expires}
end
local token = redis.call('INCR', counter)
redis.call('HSET', lock, 'resource', ARGV[1], 'owner', ARGV[2], 'token', int(token), 'acquired_ms', int(now),
  'expires_ms', int(expires))
redis.call('PEXPIREAT', lock, int(expires))
return {1, token, now, expires}
