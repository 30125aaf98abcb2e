-- Moves the end of a live lock held by the caller to TTL from now.
-- KEYS[1] lock hash; ARGV[1] owner, ARGV[2] TTL in ms.
-- Returns {1, token, acquired_ms, expires_ms} when renewed, {0} when no live lock exists, {-1} when another owner
-- holds it.
local lock = KEYS[1]
local held, now, refusal = owned_lock(lock, ARGV[1])
if not held then
  return refusal
end
local expires = now + tonumber(ARGV[2])
set_end(lock, expires)
return {1, tonumber(held[2]), tonumber(held[3]), expires}
