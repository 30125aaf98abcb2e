-- Gives up a live lock held by the caller: it stays held until acquired_ms + minimum hold when that is still ahead,
-- otherwise the lock hash is deleted. The token counter is never touched.
-- KEYS[1] lock hash; ARGV[1] owner, ARGV[2] minimum hold in ms.
-- Returns {1} when released, {0} when no live lock exists, {-1} when another owner holds it.
local lock = KEYS[1]
local held, now, refusal = owned_lock(lock, ARGV[1])
if not held then
  return refusal
end
local keep = tonumber(held[3]) + tonumber(ARGV[2])
if keep > now then
  set_end(lock, keep)
else
  redis.call('DEL', lock)
end
return {1}
