-- POST /v1/pay is one payout RPC (Pay) now: payout's own idempotency_keys table maps a pay's key
-- to its transaction and so to its instruction, resolve and execute under that one key. The
-- gateway's copy of that mapping (0002) is no longer written nor read.
DROP TABLE IF EXISTS pay_idempotency_keys;
