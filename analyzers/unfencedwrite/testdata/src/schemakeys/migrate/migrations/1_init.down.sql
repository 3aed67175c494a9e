DROP TABLE weird;
DROP TABLE events;
DROP TABLE payouts;
DROP TABLE raw_blocks;
DROP TABLE totals;
DROP TABLE rollups;
