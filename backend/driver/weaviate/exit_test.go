package weaviate_test

import "os"

func exitWith(code int) { os.Exit(code) }
