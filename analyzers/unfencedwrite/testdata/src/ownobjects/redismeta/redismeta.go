// Package redismeta implements meta.Storage on Redis with redigo.
package redismeta

import "github.com/gomodule/redigo/redis"

type Storage struct{ pool *redis.Pool }

func New(pool *redis.Pool) *Storage { return &Storage{pool: pool} }

func (s *Storage) AppendTaskLog(taskID, line string) error {
	conn := s.pool.Get()
	defer conn.Close()
	_, err := conn.Do("ZADD", "task_log:"+taskID, 1, line)
	return err
}

func (s *Storage) UpdateTaskStatus(taskID, status string) error {
	conn := s.pool.Get()
	defer conn.Close()
	_, err := conn.Do("HSET", "task:"+taskID, "status", status)
	return err
}

func (s *Storage) SaveSignature(collection, sig string) error {
	conn := s.pool.Get()
	defer conn.Close()
	_, err := conn.Do("HSET", "signatures", collection, sig)
	return err
}
