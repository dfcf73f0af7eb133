//go:build !race

package webclient_test

import "time"

// liveBound is how soon a message sent through the API must show in the page: within a second.
const liveBound = time.Second
