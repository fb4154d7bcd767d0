// Generated inputs for the benchmark and the fuzzer: a realistic ~10 KB vLLM pod CREATE request
// (independent of any policy's test_data, so the JSON-DOM numbers stay comparable run to run) and
// a way to grow any request to a target size with realistic bulk (managedFields entries, which real
// API-server objects carry and policies must pass through untouched). Deterministic: no randomness.

/** A vLLM serving pod as the API server would send it on CREATE, compact JSON, ~10 KB. */
export function vllmPodRequest(): Record<string, unknown> {
  const env = (name: string, value: string) => ({ name, value });
  const vllmEnv = [
    env("HF_HOME", "/models/.cache/huggingface"),
    env("VLLM_LOGGING_LEVEL", "INFO"),
    env("VLLM_WORKER_MULTIPROC_METHOD", "spawn"),
    env("NCCL_DEBUG", "WARN"),
    env("NCCL_IB_DISABLE", "1"),
    env("CUDA_DEVICE_ORDER", "PCI_BUS_ID"),
    env("OMP_NUM_THREADS", "8"),
    env("TOKENIZERS_PARALLELISM", "false"),
    {
      name: "HUGGING_FACE_HUB_TOKEN",
      valueFrom: { secretKeyRef: { name: "hf-token", key: "token", optional: false } },
    },
    { name: "POD_IP", valueFrom: { fieldRef: { apiVersion: "v1", fieldPath: "status.podIP" } } },
    { name: "POD_NAME", valueFrom: { fieldRef: { apiVersion: "v1", fieldPath: "metadata.name" } } },
    env("LMCACHE_CHUNK_SIZE", "256"),
    env("LMCACHE_LOCAL_CPU", "True"),
    env("LMCACHE_MAX_LOCAL_CPU_SIZE", "40.0"),
    env("PROMETHEUS_MULTIPROC_DIR", "/tmp/prometheus"),
    env("VLLM_USAGE_SOURCE", "production-docker-image"),
    env("VLLM_ATTENTION_BACKEND", "FLASH_ATTN"),
    env("VLLM_ENGINE_ITERATION_TIMEOUT_S", "180"),
    env("VLLM_RPC_TIMEOUT", "100000"),
    env("VLLM_ALLOW_LONG_MAX_MODEL_LEN", "1"),
    env("NCCL_SOCKET_IFNAME", "eth0"),
    env("GLOO_SOCKET_IFNAME", "eth0"),
    env("MODEL_REVISION", "e1945c40cd546c78e41f1151f4db032b271faeaa"),
    {
      name: "MEMORY_LIMIT",
      valueFrom: { resourceFieldRef: { containerName: "vllm", resource: "limits.memory", divisor: "1Mi" } },
    },
    {
      name: "OTEL_EXPORTER_OTLP_ENDPOINT",
      valueFrom: { configMapKeyRef: { name: "otel-collector", key: "endpoint", optional: true } },
    },
  ];
  const probe = (pathName: string, initialDelaySeconds: number) => ({
    httpGet: { path: pathName, port: 8000, scheme: "HTTP" },
    initialDelaySeconds,
    periodSeconds: 10,
    timeoutSeconds: 5,
    successThreshold: 1,
    failureThreshold: 30,
  });
  const object = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      generateName: "llama-3-8b-instruct-7d9f8b6c5-",
      namespace: "inference",
      labels: {
        app: "llama-3-8b-instruct",
        "app.kubernetes.io/name": "vllm",
        "app.kubernetes.io/instance": "llama-3-8b-instruct",
        "app.kubernetes.io/component": "inference-server",
        "lmcache.ai/lmcache-inject": "enabled",
        "pod-template-hash": "7d9f8b6c5",
        "model.aibrix.ai/name": "llama-3-8b-instruct",
      },
      annotations: {
        "lmcache.ai/lmcache-engine": "lmcache-shared",
        "prometheus.io/scrape": "true",
        "prometheus.io/port": "8000",
        "prometheus.io/path": "/metrics",
        "kubectl.kubernetes.io/default-container": "vllm",
        "cluster-autoscaler.kubernetes.io/safe-to-evict": "false",
      },
      ownerReferences: [
        {
          apiVersion: "apps/v1",
          kind: "ReplicaSet",
          name: "llama-3-8b-instruct-7d9f8b6c5",
          uid: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      managedFields: [
        {
          manager: "kube-controller-manager",
          operation: "Update",
          apiVersion: "v1",
          time: "2025-01-14T09:12:44Z",
          fieldsType: "FieldsV1",
          fieldsV1: {
            "f:metadata": {
              "f:generateName": {},
              "f:labels": { ".": {}, "f:app": {}, "f:pod-template-hash": {} },
              "f:ownerReferences": { ".": {}, 'k:{"uid":"6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f"}': {} },
            },
            "f:spec": {
              "f:containers": {
                'k:{"name":"vllm"}': {
                  ".": {},
                  "f:args": {},
                  "f:env": {},
                  "f:image": {},
                  "f:name": {},
                  "f:ports": {},
                  "f:resources": {},
                },
              },
            },
          },
        },
      ],
    },
    spec: {
      serviceAccountName: "vllm",
      priorityClassName: "inference-high",
      terminationGracePeriodSeconds: 120,
      nodeSelector: {
        "nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB",
        "node.kubernetes.io/instance-type": "p4d.24xlarge",
      },
      tolerations: [
        { key: "nvidia.com/gpu", operator: "Exists", effect: "NoSchedule" },
        { key: "node.kubernetes.io/not-ready", operator: "Exists", effect: "NoExecute", tolerationSeconds: 300 },
        { key: "node.kubernetes.io/unreachable", operator: "Exists", effect: "NoExecute", tolerationSeconds: 300 },
      ],
      affinity: {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 100,
              podAffinityTerm: {
                topologyKey: "kubernetes.io/hostname",
                labelSelector: { matchLabels: { app: "llama-3-8b-instruct" } },
              },
            },
          ],
        },
      },
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: "topology.kubernetes.io/zone",
          whenUnsatisfiable: "ScheduleAnyway",
          labelSelector: { matchLabels: { app: "llama-3-8b-instruct" } },
          matchLabelKeys: ["pod-template-hash"],
        },
      ],
      hostAliases: [{ ip: "10.0.12.7", hostnames: ["models.internal.example.com", "hf-mirror.internal.example.com"] }],
      securityContext: { runAsNonRoot: false, fsGroup: 1000, seccompProfile: { type: "RuntimeDefault" } },
      imagePullSecrets: [{ name: "registry-credentials" }],
      initContainers: [
        {
          name: "model-download",
          image: "ghcr.io/example/model-downloader:1.4.2",
          command: ["/bin/sh", "-c"],
          args: [
            "huggingface-cli download meta-llama/Meta-Llama-3-8B-Instruct --local-dir /models/llama-3-8b-instruct --exclude '*.pth'",
          ],
          env: [
            env("HF_HOME", "/models/.cache/huggingface"),
            { name: "HUGGING_FACE_HUB_TOKEN", valueFrom: { secretKeyRef: { name: "hf-token", key: "token" } } },
          ],
          resources: { requests: { cpu: "1", memory: "2Gi" }, limits: { cpu: "2", memory: "4Gi" } },
          volumeMounts: [{ name: "models", mountPath: "/models" }],
          terminationMessagePath: "/dev/termination-log",
          terminationMessagePolicy: "File",
          imagePullPolicy: "IfNotPresent",
        },
      ],
      containers: [
        {
          name: "vllm",
          image: "lmcache/vllm-openai:v0.3.1",
          args: [
            "--model",
            "/models/llama-3-8b-instruct",
            "--served-model-name",
            "llama-3-8b-instruct",
            "--port",
            "8000",
            "--host",
            "0.0.0.0",
            "--tensor-parallel-size",
            "2",
            "--max-model-len",
            "8192",
            "--gpu-memory-utilization",
            "0.92",
            "--max-num-seqs",
            "256",
            "--enable-prefix-caching",
            "--disable-log-requests",
            "--dtype",
            "bfloat16",
            "--swap-space",
            "16",
          ],
          ports: [{ name: "http", containerPort: 8000, protocol: "TCP" }],
          env: vllmEnv,
          resources: {
            requests: { cpu: "16", memory: "128Gi", "nvidia.com/gpu": "2", "ephemeral-storage": "50Gi" },
            limits: { cpu: "24", memory: "160Gi", "nvidia.com/gpu": "2", "ephemeral-storage": "100Gi" },
          },
          volumeMounts: [
            { name: "models", mountPath: "/models", readOnly: true },
            { name: "dshm", mountPath: "/dev/shm" },
            { name: "prometheus", mountPath: "/tmp/prometheus" },
            {
              name: "kube-api-access-x7k2p",
              mountPath: "/var/run/secrets/kubernetes.io/serviceaccount",
              readOnly: true,
            },
          ],
          startupProbe: probe("/health", 30),
          readinessProbe: probe("/health", 5),
          livenessProbe: probe("/health", 60),
          lifecycle: { preStop: { exec: { command: ["/bin/sh", "-c", "sleep 15"] } } },
          securityContext: { allowPrivilegeEscalation: false, capabilities: { add: ["IPC_LOCK", "SYS_PTRACE"] } },
          terminationMessagePath: "/dev/termination-log",
          terminationMessagePolicy: "File",
          imagePullPolicy: "IfNotPresent",
        },
        {
          name: "metrics-exporter",
          image: "quay.io/prometheus/node-exporter:v1.8.2",
          args: [
            "--web.listen-address=:9100",
            "--collector.disable-defaults",
            "--collector.textfile",
            "--collector.textfile.directory=/tmp/prometheus",
          ],
          ports: [{ name: "metrics", containerPort: 9100, protocol: "TCP" }],
          resources: { requests: { cpu: "50m", memory: "64Mi" }, limits: { cpu: "200m", memory: "128Mi" } },
          volumeMounts: [{ name: "prometheus", mountPath: "/tmp/prometheus", readOnly: true }],
          terminationMessagePath: "/dev/termination-log",
          terminationMessagePolicy: "File",
          imagePullPolicy: "IfNotPresent",
        },
        {
          name: "log-shipper",
          image: "docker.io/fluent/fluent-bit:3.1.9",
          args: ["--config=/fluent-bit/etc/fluent-bit.yaml", "--enable-hot-reload"],
          env: [
            env("FLUENT_ELASTICSEARCH_HOST", "logging-es-http.logging.svc.cluster.local"),
            env("FLUENT_ELASTICSEARCH_PORT", "9200"),
            env("FLUENT_ELASTICSEARCH_INDEX", "inference-llama-3-8b-instruct"),
            env("FLUENT_BIT_BUFFER_LIMIT", "64MB"),
            { name: "NODE_NAME", valueFrom: { fieldRef: { apiVersion: "v1", fieldPath: "spec.nodeName" } } },
            { name: "ES_PASSWORD", valueFrom: { secretKeyRef: { name: "logging-es-elastic-user", key: "elastic" } } },
          ],
          ports: [{ name: "fb-metrics", containerPort: 2020, protocol: "TCP" }],
          resources: { requests: { cpu: "100m", memory: "128Mi" }, limits: { cpu: "500m", memory: "256Mi" } },
          volumeMounts: [
            { name: "fluent-bit-config", mountPath: "/fluent-bit/etc", readOnly: true },
            { name: "varlog", mountPath: "/var/log", readOnly: true },
          ],
          readinessProbe: {
            httpGet: { path: "/api/v1/health", port: 2020, scheme: "HTTP" },
            periodSeconds: 15,
            timeoutSeconds: 3,
            failureThreshold: 3,
            successThreshold: 1,
          },
          terminationMessagePath: "/dev/termination-log",
          terminationMessagePolicy: "File",
          imagePullPolicy: "IfNotPresent",
        },
      ],
      volumes: [
        { name: "fluent-bit-config", configMap: { name: "fluent-bit-inference", defaultMode: 420 } },
        { name: "varlog", hostPath: { path: "/var/log", type: "Directory" } },
        { name: "models", persistentVolumeClaim: { claimName: "llama-3-8b-instruct-models" } },
        { name: "dshm", emptyDir: { medium: "Memory", sizeLimit: "32Gi" } },
        { name: "prometheus", emptyDir: {} },
        {
          name: "kube-api-access-x7k2p",
          projected: {
            defaultMode: 420,
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: "token" } },
              { configMap: { name: "kube-root-ca.crt", items: [{ key: "ca.crt", path: "ca.crt" }] } },
              {
                downwardAPI: {
                  items: [{ path: "namespace", fieldRef: { apiVersion: "v1", fieldPath: "metadata.namespace" } }],
                },
              },
            ],
          },
        },
      ],
      dnsPolicy: "ClusterFirst",
      restartPolicy: "Always",
      schedulerName: "default-scheduler",
      enableServiceLinks: false,
      preemptionPolicy: "PreemptLowerPriority",
      priority: 1000000,
    },
    status: {},
  };
  return {
    uid: "0f8e2c9a-5b7d-4e1f-9a3c-6d2b8e4f1a7c",
    kind: { group: "", version: "v1", kind: "Pod" },
    resource: { group: "", version: "v1", resource: "pods" },
    requestKind: { group: "", version: "v1", kind: "Pod" },
    requestResource: { group: "", version: "v1", resource: "pods" },
    namespace: "inference",
    operation: "CREATE",
    userInfo: {
      username: "system:serviceaccount:kube-system:replicaset-controller",
      uid: "9a8b7c6d-5e4f-4a3b-2c1d-0e9f8a7b6c5d",
      groups: ["system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated"],
    },
    object,
    dryRun: false,
    options: { apiVersion: "meta.k8s.io/v1", kind: "CreateOptions" },
  };
}

/** `{"request":<vllm pod>,"settings":{}}` as compact JSON bytes. */
export function vllmPodPayload(): Buffer {
  return Buffer.from(JSON.stringify({ request: vllmPodRequest(), settings: {} }), "utf8");
}

/** One server-side-apply managedFields entry; `i` varies field names so entries are not identical. */
function managedFieldsEntry(i: number): Record<string, unknown> {
  const envEntries: Record<string, unknown> = {};
  for (let k = 0; k < 12; k++)
    envEntries[`k:{"name":"APP_SETTING_${i}_${k}"}`] = { ".": {}, "f:name": {}, "f:value": {} };
  return {
    manager: `deploy-controller-${i % 17}`,
    operation: i % 3 === 0 ? "Apply" : "Update",
    apiVersion: "v1",
    time: `2025-01-${String(1 + (i % 28)).padStart(2, "0")}T${String(i % 24).padStart(2, "0")}:15:${String(i % 60).padStart(2, "0")}Z`,
    fieldsType: "FieldsV1",
    fieldsV1: {
      "f:metadata": {
        "f:annotations": { [`f:example.com/revision-${i}`]: {} },
        "f:labels": { [`f:shard-${i % 50}`]: {} },
      },
      "f:spec": {
        "f:containers": {
          [`k:{"name":"worker-${i}"}`]: {
            ".": {},
            "f:env": envEntries,
            "f:image": {},
            "f:resources": { "f:limits": { "f:cpu": {} } },
          },
        },
      },
    },
  };
}

/**
 * `payload` (a validate payload) grown to at least `targetBytes` by appending managedFields entries
 * to `request.object.metadata`. Returns null when the payload has no object with metadata to grow.
 */
export function growPayload(payload: Buffer, targetBytes: number): Buffer | null {
  let doc: { request?: { object?: { metadata?: Record<string, unknown> } } };
  try {
    doc = JSON.parse(payload.toString("utf8")) as typeof doc;
  } catch {
    return null;
  }
  const metadata = doc.request?.object?.metadata;
  if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) return null;
  const list: unknown[] = Array.isArray(metadata.managedFields) ? (metadata.managedFields as unknown[]) : [];
  metadata.managedFields = list;
  const base = Buffer.byteLength(JSON.stringify(doc));
  const entrySize = Buffer.byteLength(JSON.stringify(managedFieldsEntry(0))) + 1;
  const needed = Math.max(0, Math.ceil((targetBytes - base) / entrySize));
  for (let i = 0; i < needed; i++) list.push(managedFieldsEntry(i));
  let out = Buffer.from(JSON.stringify(doc), "utf8");
  for (let i = needed; out.length < targetBytes; i++) {
    list.push(managedFieldsEntry(i));
    out = Buffer.from(JSON.stringify(doc), "utf8");
  }
  return out;
}
