-- KEYS[1]: the coupon's lock key, KEYS[2]: its status key
-- ARGV[1]: the user, ARGV[2]: the lock's TTL in seconds
local status = redis.call('GET', KEYS[2])
if status and tonumber(status) ~= 1 then
    return -2
end
local ok = redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2])
if not ok then
    return -3
end
return 1
