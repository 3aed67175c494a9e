create schema if not exists "ledger";

create table if not exists "ledger"."day_counts"
(
    day   date   not null,
    count bigint not null,
    constraint pk_day_counts primary key (day)
);

create table if not exists "ledger"."totals_by_epoch"
(
    epoch  integer  not null,
    period smallint not null,
    total  bigint   not null,
    constraint pk_totals_by_epoch primary key (epoch, period)
);

create table if not exists "ledger"."payouts"
(
    id     bigserial primary key,
    epoch  integer   not null,
    amount bigint    not null
);
