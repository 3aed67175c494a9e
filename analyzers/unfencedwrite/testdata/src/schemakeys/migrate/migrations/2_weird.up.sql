-- Not something fencelint reads: the table's keys are unknown from here on.
ALTER TABLE weird PARTITION BY KEY (chain_id) PARTITIONS 4;
