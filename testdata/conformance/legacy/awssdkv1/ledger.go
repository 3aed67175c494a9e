package awssdkv1

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/service/dynamodb"
	"github.com/bsm/redislock"
)

// Ledger keeps account balances in DynamoDB with aws-sdk-go v1; one replica
// at a time closes an account's day.
type Ledger struct {
	locker *redislock.Client
	ddb    *dynamodb.DynamoDB
}

func account(id string) map[string]*dynamodb.AttributeValue {
	return map[string]*dynamodb.AttributeValue{"id": {S: aws.String(id)}}
}

// CloseDay writes the closing balance over whatever is there, then writes
// the day's summary only over the version it read.
func (l *Ledger) CloseDay(ctx context.Context, id string, balance, version int64) error {
	lock, err := l.locker.Obtain(ctx, "close:"+id, time.Minute, nil)
	if errors.Is(err, redislock.ErrNotObtained) {
		return errBusy
	}
	if err != nil {
		return err
	}
	defer lock.Release(context.Background())
	if _, err := l.ddb.PutItemWithContext(ctx, &dynamodb.PutItemInput{ // want unfencedwrite:"without a fencing token"
		TableName: aws.String("balances"),
		Item:      map[string]*dynamodb.AttributeValue{"id": {S: aws.String(id)}, "balance": {N: aws.String(strconv.FormatInt(balance, 10))}},
	}); err != nil {
		return err
	}
	_, err = l.ddb.UpdateItem(&dynamodb.UpdateItemInput{
		TableName:                 aws.String("summaries"),
		Key:                       account(id),
		UpdateExpression:          aws.String("SET closed = :t, version = version + :one"),
		ConditionExpression:       aws.String("version = :v"),
		ExpressionAttributeValues: map[string]*dynamodb.AttributeValue{":t": {BOOL: aws.Bool(true)}, ":one": {N: aws.String("1")}, ":v": {N: aws.String(strconv.FormatInt(version, 10))}},
	})
	return err
}
