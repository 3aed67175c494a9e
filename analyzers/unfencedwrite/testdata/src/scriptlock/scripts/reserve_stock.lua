-- KEYS[1]: the stock counter, KEYS[2]: the user's count
local stock = tonumber(redis.call('GET', KEYS[1]) or '0')
if stock <= 0 then
    return -4
end
redis.call('DECR', KEYS[1])
redis.call('INCR', KEYS[2])
return 1
