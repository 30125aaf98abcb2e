-- Helpers every lock script starts with. Time is the server's: TIME is read inside the script, never sent by the
-- application. Numbers are written as integer strings: Lua's default formatting could use an exponent.
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

local function int(n)
  return string.format('%.0f', n)
end

-- An error text when the key exists with another type than the layout gives it, else nil.
local function wrong_type(key, expected)
  local actual = redis.call('TYPE', key)['ok']
  if actual ~= 'none' and actual ~= expected then
    return 'DISTLOCK_KEY_TYPE \'' .. key .. '\' holds a ' .. actual .. ', not a ' .. expected
  end
  return nil
end

-- The fields of the live lock in a hash (owner, token, acquired_ms, expires_ms), or nil when there is none: an
-- absent key, or one whose end has come (the server may keep a key one millisecond past its expiry instant).
local function live_lock(key, now)
  local held = redis.call('HMGET', key, 'owner', 'token', 'acquired_ms', 'expires_ms')
  if held[1] and (tonumber(held[4]) or 0) > now then
    return held
  end
  return nil
end

local function set_end(key, at)
  redis.call('HSET', key, 'expires_ms', int(at))
  redis.call('PEXPIREAT', key, int(at))
end

-- The error reply when one of the keys exists with another type than the layout gives it, else nil: expected is one
-- type for every key, or a list of types, key by key.
local function wrong_types(keys, expected)
  for i, key in ipairs(keys) do
    local conflict = wrong_type(key, type(expected) == 'table' and expected[i] or expected)
    if conflict then
      return redis.error_reply(conflict)
    end
  end
  return nil
end

-- The caller's live lock in a hash and the server's time, or nil, nil and the reply that refuses: an error when the
-- key has another type, {0} when no live lock exists, {-1} when another owner holds it.
local function owned_lock(key, owner)
  local conflict = wrong_type(key, 'hash')
  if conflict then
    return nil, nil, redis.error_reply(conflict)
  end
  local now = now_ms()
  local held = live_lock(key, now)
  if not held then
    return nil, nil, {0}
  end
  if held[1] ~= owner then
    return nil, nil, {-1}
  end
  return held, now, nil
end
