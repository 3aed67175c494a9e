// Package bson is a stub of go.mongodb.org/mongo-driver/bson (v1.12).
package bson

import "go.mongodb.org/mongo-driver/bson/primitive"

type D = primitive.D

type E = primitive.E

type M = primitive.M

type A = primitive.A
