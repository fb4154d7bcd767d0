// kube-client: the test suite's one client of its kube-apiserver, built on client-go.
//
//	kube-client pki <dir>                          CA, serving certificate, service-account key, admin client certificate
//	kube-client user <dir> <name> [<group>...]     a client certificate for a user, signed by the CA of <dir>
//	kube-client batch --kubeconfig <file> [--workers n] < requests.jsonl > results.jsonl
//	kube-client supervise <command> [<arg>...]     runs a server process and kills it when the caller dies
//
// batch reads one JSON request per line and writes one JSON result per line, in the order of the
// requests, so a test sends hundreds of objects through one process and one connection pool.
// A request: {"verb": "create|apply|update|get|delete|wait", "namespace": "ns", "object": {…},
// "dryRun": true, "fieldValidation": "Strict", "fieldManager": "…", "force": true,
// "apiVersion": "v1", "kind": "Pod", "name": "x", "condition": "Established", "timeoutSeconds": 30}.
// A result: {"ok": true, "object": {…}} or {"ok": false, "status": <the server's metav1.Status>}
// or {"ok": false, "error": "<client-side error, e.g. an unknown kind>"}.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
)

type request struct {
	Verb            string                 `json:"verb"`
	Namespace       string                 `json:"namespace,omitempty"`
	Object          map[string]interface{} `json:"object,omitempty"`
	DryRun          bool                   `json:"dryRun,omitempty"`
	FieldValidation string                 `json:"fieldValidation,omitempty"`
	FieldManager    string                 `json:"fieldManager,omitempty"`
	Force           bool                   `json:"force,omitempty"`
	APIVersion      string                 `json:"apiVersion,omitempty"`
	Kind            string                 `json:"kind,omitempty"`
	Name            string                 `json:"name,omitempty"`
	Condition       string                 `json:"condition,omitempty"`
	TimeoutSeconds  int                    `json:"timeoutSeconds,omitempty"`
}

type result struct {
	OK     bool                   `json:"ok"`
	Object map[string]interface{} `json:"object,omitempty"`
	Status *metav1.Status         `json:"status,omitempty"`
	Error  string                 `json:"error,omitempty"`
}

func main() {
	if len(os.Args) < 2 {
		fail("usage: kube-client pki <dir> | user <dir> <name> [<group>...] | batch --kubeconfig <file> [--workers n]")
	}
	var err error
	switch os.Args[1] {
	case "pki":
		if len(os.Args) != 3 {
			fail("usage: kube-client pki <dir>")
		}
		err = writePKI(os.Args[2])
	case "user":
		if len(os.Args) < 4 {
			fail("usage: kube-client user <dir> <name> [<group>...]")
		}
		err = writeUser(os.Args[2], os.Args[3], os.Args[4:])
	case "supervise":
		if len(os.Args) < 3 {
			fail("usage: kube-client supervise <command> [<arg>...]")
		}
		err = supervise(os.Args[2], os.Args[3:])
	case "batch":
		fs := flag.NewFlagSet("batch", flag.ExitOnError)
		kubeconfig := fs.String("kubeconfig", "", "kubeconfig of the server")
		workers := fs.Int("workers", 8, "requests in flight")
		_ = fs.Parse(os.Args[2:])
		err = batch(*kubeconfig, *workers)
	default:
		fail("unknown command " + os.Args[1])
	}
	if err != nil {
		fail(err.Error())
	}
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "kube-client:", msg)
	os.Exit(2)
}

type client struct {
	dyn    dynamic.Interface
	mapper *restmapper.DeferredDiscoveryRESTMapper
	mu     sync.Mutex
}

func batch(kubeconfig string, workers int) error {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	cfg.QPS, cfg.Burst = 1000, 1000
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return err
	}
	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return err
	}
	c := &client{dyn: dyn, mapper: restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disc))}

	var reqs []request
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	for in.Scan() {
		if len(in.Bytes()) == 0 {
			continue
		}
		var r request
		if err := json.Unmarshal(in.Bytes(), &r); err != nil {
			return fmt.Errorf("request %d: %v", len(reqs)+1, err)
		}
		reqs = append(reqs, r)
	}
	if err := in.Err(); err != nil {
		return err
	}

	results := make([]result, len(reqs))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(1, workers); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = c.do(reqs[i])
			}
		}()
	}
	for i := range reqs {
		next <- i
	}
	close(next)
	wg.Wait()

	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	for _, r := range results {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return out.Flush()
}

// resource finds the REST resource of a kind, rediscovering once when the kind is unknown (a CRD
// installed after the first discovery).
func (c *client) resource(gvk schema.GroupVersionKind, namespace string) (dynamic.ResourceInterface, error) {
	c.mu.Lock()
	m, err := c.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if meta.IsNoMatchError(err) {
		c.mapper.Reset()
		m, err = c.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	}
	c.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		return c.dyn.Resource(m.Resource).Namespace(namespace), nil
	}
	return c.dyn.Resource(m.Resource), nil
}

func (c *client) do(r request) result {
	ctx := context.Background()
	obj := &unstructured.Unstructured{Object: r.Object}
	// the request's kind, when given, chooses the endpoint (a test may send a Pod whose own kind
	// field is damaged: the server, not the client, is to judge it)
	gvk := obj.GroupVersionKind()
	if r.Kind != "" {
		gvk = schema.FromAPIVersionAndKind(r.APIVersion, r.Kind)
	}
	name := obj.GetName()
	if r.Object == nil {
		name = r.Name
	}
	namespace := r.Namespace
	if namespace == "" && r.Object != nil {
		namespace = obj.GetNamespace()
	}
	res, err := c.resource(gvk, namespace)
	if err != nil {
		return failure(err)
	}
	var dryRun []string
	if r.DryRun {
		dryRun = []string{metav1.DryRunAll}
	}
	validation := r.FieldValidation
	if validation == "" {
		validation = metav1.FieldValidationStrict
	}
	manager := r.FieldManager
	if manager == "" {
		manager = "cachewarden-tests"
	}
	var out *unstructured.Unstructured
	switch r.Verb {
	case "create":
		out, err = res.Create(ctx, obj, metav1.CreateOptions{DryRun: dryRun, FieldValidation: validation, FieldManager: manager})
	case "update":
		out, err = res.Update(ctx, obj, metav1.UpdateOptions{DryRun: dryRun, FieldValidation: validation, FieldManager: manager})
	case "apply":
		var body []byte
		if body, err = json.Marshal(r.Object); err == nil {
			force := r.Force
			out, err = res.Patch(ctx, name, types.ApplyPatchType, body, metav1.PatchOptions{
				DryRun: dryRun, FieldValidation: validation, FieldManager: manager, Force: &force,
			})
		}
	case "get":
		out, err = res.Get(ctx, name, metav1.GetOptions{})
	case "delete":
		err = res.Delete(ctx, name, metav1.DeleteOptions{DryRun: dryRun})
	case "wait":
		out, err = waitFor(ctx, res, name, r.Condition, time.Duration(max(1, r.TimeoutSeconds))*time.Second)
	default:
		err = fmt.Errorf("unknown verb %q", r.Verb)
	}
	if err != nil {
		return failure(err)
	}
	if out == nil {
		return result{OK: true}
	}
	return result{OK: true, Object: out.Object}
}

// waitFor polls until the object's status.conditions has `condition` with status True.
func waitFor(ctx context.Context, res dynamic.ResourceInterface, name, condition string, timeout time.Duration) (*unstructured.Unstructured, error) {
	deadline := time.Now().Add(timeout)
	for {
		out, err := res.Get(ctx, name, metav1.GetOptions{})
		if err == nil {
			conditions, _, _ := unstructured.NestedSlice(out.Object, "status", "conditions")
			for _, c := range conditions {
				if m, ok := c.(map[string]interface{}); ok && m["type"] == condition && m["status"] == "True" {
					return out, nil
				}
			}
		} else if !apierrors.IsNotFound(err) {
			return nil, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s: condition %s not true after %s", name, condition, timeout)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func failure(err error) result {
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		s := status.Status()
		return result{Status: &s}
	}
	return result{Error: err.Error()}
}
