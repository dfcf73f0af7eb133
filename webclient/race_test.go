//go:build race

package webclient_test

import "time"

// liveBound is how soon a message sent through the API must show in the page: under the race
// detector, with other packages' tests beside it, the server is several times slower.
const liveBound = 5 * time.Second
