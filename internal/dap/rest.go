package dap

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"traced/internal/apiclient"
)

// requestBound bounds one REST call: execution calls are sent with waitMs 0 and answer at once,
// so only a service that stopped answering reaches it.
const requestBound = 30 * time.Second

// restClient is the typed API client of one session's service, and where its stream is.
type restClient struct {
	api         *apiclient.Client
	addr, token string
}

func newRESTClient(addr, token string, hc *http.Client) *restClient {
	return &restClient{api: apiclient.New("http://"+addr, token, hc), addr: addr, token: token}
}

// do sends one request and decodes its JSON answer into out (when out is not nil); a *string
// out takes the compact text form as it came. A refusal reads as its message and hint.
func (c *restClient) do(ctx context.Context, method, path string, q url.Values, body, out any) error {
	ctx, cancel := context.WithTimeout(ctx, requestBound)
	defer cancel()
	var err error
	if sp, ok := out.(*string); ok {
		var r *apiclient.Reply
		if r, err = c.api.Text(ctx, method, path, q, body); err == nil {
			*sp = string(r.Body)
		}
	} else {
		_, err = c.api.JSON(ctx, method, path, q, body, out)
	}
	var ref *apiclient.Error
	if errors.As(err, &ref) && ref.Hint != "" {
		return fmt.Errorf("%w (%s)", err, ref.Hint)
	}
	return err
}

// targetQuery is the query naming a target (t0 needs none).
func targetQuery(target string) url.Values {
	q := url.Values{}
	if target != "" && target != mainTarget {
		q.Set("target", target)
	}
	return q
}
