-- Checks that this server can run the lock scripts, and that the first keys of the layout a bounded SCAN finds have
-- the layout's types: lock hashes end in '}:lock', token counters (strings) in '}:token'.
-- ARGV[1] SCAN MATCH pattern of the layout's keys, ARGV[2] most SCAN pages (COUNT 1000 each) to look at.
-- Returns the server's version.
if not redis.REDIS_VERSION_NUM or redis.REDIS_VERSION_NUM < 0x070000 then
  return redis.error_reply('DISTLOCK_VERSION Redis ' .. (redis.REDIS_VERSION or 'older than 7.0')
    .. ' is too old: the lock store needs Redis 7.0 or later')
end
now_ms()
local cursor, pages = '0', 0
repeat
  local page = redis.call('SCAN', cursor, 'MATCH', ARGV[1], 'COUNT', 1000)
  cursor = page[1]
  for _, key in ipairs(page[2]) do
    local expected = nil
    if string.sub(key, -6) == '}:lock' then
      expected = 'hash'
    elseif string.sub(key, -7) == '}:token' then
      expected = 'string'
    end
    if expected then
      local conflict = wrong_type(key, expected)
      if conflict then
        return redis.error_reply(conflict)
      end
    end
  end
  pages = pages + 1
until cursor == '0' or pages >= tonumber(ARGV[2])
return redis.REDIS_VERSION
