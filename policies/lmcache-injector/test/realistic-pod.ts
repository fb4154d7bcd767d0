// The realistic vLLM pod used by the full-injection case and the benchmark: ~7 KB as the API server
// sends it, with a kubectl last-applied-configuration annotation (a JSON text full of `\"` and `\n`
// escapes), Go-style `\u0026` HTML escapes, resources, probes, volumes, tolerations, an unknown
// field and number spellings (`1000.0`, `2.5e+3`) that a lossless DOM must hand back byte for byte.
// Kept as raw text on purpose: JSON.stringify would normalise exactly what the test wants to see kept.

const LAST_APPLIED = String.raw`{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"annotations\":{\"lmcache.ai/lmcache-engine\":\"cb\",\"prometheus.io/port\":\"8000\",\"prometheus.io/scrape\":\"true\"},\"labels\":{\"app.kubernetes.io/name\":\"vllm\",\"app.kubernetes.io/instance\":\"qwen-7b\",\"lmcache.ai/lmcache-inject\":\"true\"},\"name\":\"vllm-qwen-7b\",\"namespace\":\"vllm-ns\"},\"spec\":{\"containers\":[{\"args\":[\"--model\",\"Qwen/Qwen2.5-7B-Instruct\",\"--port\",\"8000\",\"--gpu-memory-utilization\",\"0.90\",\"--max-model-len\",\"32768\"],\"env\":[{\"name\":\"HF_HOME\",\"value\":\"/root/.cache/huggingface\"}],\"image\":\"vllm/vllm-openai:v0.11.0\",\"name\":\"vllm\",\"ports\":[{\"containerPort\":8000,\"name\":\"http\"}],\"resources\":{\"limits\":{\"cpu\":\"8\",\"memory\":\"48Gi\",\"nvidia.com/gpu\":\"1\"}}},{\"image\":\"quay.io/acme/gpu-metrics:1.4\",\"name\":\"metrics-exporter\"}],\"tolerations\":[{\"effect\":\"NoSchedule\",\"key\":\"nvidia.com/gpu\",\"operator\":\"Exists\"}]}}\n`;

/** The pod object as raw JSON text (2-space indented in places, compact in others, like real traffic). */
export const REALISTIC_POD_TEXT = `{
  "apiVersion": "v1",
  "kind": "Pod",
  "metadata": {
    "name": "vllm-qwen-7b",
    "namespace": "vllm-ns",
    "uid": "",
    "creationTimestamp": null,
    "labels": {
      "app.kubernetes.io/name": "vllm",
      "app.kubernetes.io/instance": "qwen-7b",
      "app.kubernetes.io/part-of": "inference",
      "lmcache.ai/lmcache-inject": "true"
    },
    "annotations": {
      "kubectl.kubernetes.io/last-applied-configuration": "${LAST_APPLIED}",
      "lmcache.ai/lmcache-engine": "cb",
      "prometheus.io/port": "8000",
      "prometheus.io/scrape": "true",
      "acme.example.com/owner": "ml-platform \\u0026 research \\u003cinfra@acme.example.com\\u003e"
    },
    "managedFields": [{"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"v1","time":"2025-11-03T09:12:44Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{},"f:lmcache.ai/lmcache-engine":{}},"f:labels":{".":{},"f:app.kubernetes.io/name":{},"f:lmcache.ai/lmcache-inject":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"vllm\\"}":{".":{},"f:args":{},"f:image":{},"f:name":{}}}}}}]
  },
  "spec": {
    "volumes": [
      {"name": "hf-cache", "persistentVolumeClaim": {"claimName": "hf-cache-qwen"}},
      {"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": "16Gi"}},
      {"name":"kube-api-access-7xk2p","projected":{"sources":[{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},{"configMap":{"name":"kube-root-ca.crt","items":[{"key":"ca.crt","path":"ca.crt"}]}},{"downwardAPI":{"items":[{"path":"namespace","fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"}}]}}],"defaultMode":420}}
    ],
    "containers": [
      {
        "name": "vllm",
        "image": "vllm/vllm-openai:v0.11.0",
        "args": ["--model", "Qwen/Qwen2.5-7B-Instruct", "--port", "8000", "--gpu-memory-utilization", "0.90", "--max-model-len", "32768"],
        "ports": [{"name": "http", "containerPort": 8000, "protocol": "TCP"}],
        "env": [
          {"name": "HF_HOME", "value": "/root/.cache/huggingface"},
          {"name": "VLLM_LOGGING_LEVEL", "value": "INFO"},
          {"name": "HUGGING_FACE_HUB_TOKEN", "valueFrom": {"secretKeyRef": {"name": "hf-token", "key": "token", "optional": true}}},
          {"name": "POD_IP", "valueFrom": {"fieldRef": {"apiVersion": "v1", "fieldPath": "status.podIP"}}}
        ],
        "resources": {
          "limits": {"cpu": "8", "memory": "48Gi", "nvidia.com/gpu": "1"},
          "requests": {"cpu": "4", "memory": "32Gi", "nvidia.com/gpu": "1"}
        },
        "volumeMounts": [
          {"name": "hf-cache", "mountPath": "/root/.cache/huggingface"},
          {"name": "dshm", "mountPath": "/dev/shm"},
          {"name": "kube-api-access-7xk2p", "readOnly": true, "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount"}
        ],
        "livenessProbe": {"httpGet": {"path": "/health", "port": 8000, "scheme": "HTTP"}, "initialDelaySeconds": 120, "timeoutSeconds": 5, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3},
        "readinessProbe": {"httpGet": {"path": "/health", "port": 8000, "scheme": "HTTP"}, "initialDelaySeconds": 60, "timeoutSeconds": 5, "periodSeconds": 5, "successThreshold": 1, "failureThreshold": 3},
        "startupProbe": {"httpGet": {"path": "/health", "port": "http", "scheme": "HTTP"}, "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 60},
        "terminationMessagePath": "/dev/termination-log",
        "terminationMessagePolicy": "FallbackToLogsOnError",
        "imagePullPolicy": "IfNotPresent",
        "securityContext": {"allowPrivilegeEscalation": false, "capabilities": {"drop": ["ALL"]}, "runAsNonRoot": false},
        "x-acme-tuning": {"weight": 1000.0, "score": 2.5e+3, "ratio": 0.150, "note": "caf\\u00e9 \\/ r\\u00e9sum\\u00e9 \\ud83d\\ude80"}
      },
      {
        "name": "metrics-exporter",
        "image": "quay.io/acme/gpu-metrics:1.4",
        "args": ["--listen=:9400", "--collectors=dcgm"],
        "ports": [{"name": "metrics", "containerPort": 9400, "protocol": "TCP"}],
        "resources": {"limits": {"cpu": "200m", "memory": "128Mi"}, "requests": {"cpu": "50m", "memory": "64Mi"}},
        "terminationMessagePath": "/dev/termination-log",
        "terminationMessagePolicy": "File",
        "imagePullPolicy": "IfNotPresent"
      }
    ],
    "restartPolicy": "Always",
    "terminationGracePeriodSeconds": 120,
    "dnsPolicy": "ClusterFirst",
    "nodeSelector": {"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB"},
    "serviceAccountName": "default",
    "serviceAccount": "default",
    "securityContext": {"fsGroup": 1000, "seccompProfile": {"type": "RuntimeDefault"}},
    "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "node.kubernetes.io/instance-type", "operator": "In", "values": ["p4d.24xlarge", "a2-ultragpu-1g"]}]}]}}},
    "schedulerName": "default-scheduler",
    "tolerations": [
      {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
      {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
      {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}
    ],
    "priority": 0,
    "enableServiceLinks": true,
    "preemptionPolicy": "PreemptLowerPriority"
  },
  "status": {}
}`;

/** Substrings of the raw pod text that must reappear verbatim in the mutated object. */
export const REALISTIC_POD_KEPT_BYTES: string[] = [
  LAST_APPLIED,
  String.raw`"weight": 1000.0, "score": 2.5e+3, "ratio": 0.150`,
  String.raw`caf\u00e9 \/ r\u00e9sum\u00e9 \ud83d\ude80`,
  String.raw`ml-platform \u0026 research \u003cinfra@acme.example.com\u003e`,
  String.raw`"k:{\"name\":\"vllm\"}"`,
];
