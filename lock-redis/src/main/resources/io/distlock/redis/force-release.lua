-- Ends a live lock whoever holds it, as an operator's forced release, only while its token is the one given: the
-- lock hash is deleted and the token counter stays, so the next holder, the old owner included, draws a larger token.
-- KEYS[1] lock hash; ARGV[1] token.
-- Returns {1} when released, {0} when no live lock exists, {-1} when the live lock has another token.
local lock = KEYS[1]
local refused = wrong_types(KEYS, 'hash')
if refused then
  return refused
end
local held = live_lock(lock, now_ms())
if not held then
  return {0}
end
if tonumber(held[2]) ~= tonumber(ARGV[1]) then
  return {-1}
end
redis.call('DEL', lock)
return {1}
