-- KEYS[1]: the order's lock key. ARGV[1]: this worker, ARGV[2]: TTL in ms.
-- Returns 1 when the lock was claimed, 0 when another worker holds it.
if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
	return 1
end
return 0
