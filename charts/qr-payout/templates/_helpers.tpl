{{/* Name of a component's resources: <release>-<component>. */}}
{{- define "qr-payout.fullname" -}}
{{- printf "%s-%s" .root.Release.Name .component | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels every pod of the release carries: what the deny-all NetworkPolicy selects. */}}
{{- define "qr-payout.releaseSelector" -}}
app.kubernetes.io/name: qr-payout
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "qr-payout.selectorLabels" -}}
{{ include "qr-payout.releaseSelector" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "qr-payout.labels" -}}
{{ include "qr-payout.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end -}}

{{/* The image reference: pinned by digest when image.digest is set, else by tag. */}}
{{- define "qr-payout.image" -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}
{{- end -}}

{{/* The program a component runs (webhook roles run the webhook program). */}}
{{- define "qr-payout.program" -}}
{{- regexReplaceAll "-(dispatcher|worker)$" . "" -}}
{{- end -}}

{{/* Entry point of a component inside the image. */}}
{{- define "qr-payout.main" -}}
{{- $program := include "qr-payout.program" . -}}
{{- if eq $program "gateway" -}}gateway/dist/main.js
{{- else if eq $program "partner-sim" -}}partner-sim/dist/main.js
{{- else -}}services/{{ $program }}/dist/main.js
{{- end -}}
{{- end -}}

{{/*
The gRPC workloads, comma-separated: decoder, fx, payout, webhook, and with webhook.split.enabled
the webhook roles as Deployments of their own.
*/}}
{{- define "qr-payout.grpcWorkloads" -}}
decoder,fx,payout,webhook{{ if .Values.webhook.split.enabled }},webhook-dispatcher,webhook-worker{{ end }}
{{- end -}}

{{/*
Where a client in the release dials a gRPC service (.component: decoder, fx, payout, webhook). With
grpc.loadBalancing round_robin, the service's headless Service: one A record per ready pod, which
the client's round_robin policy spreads calls over (docs/architecture.md "Internal load
balancing"); with pick_first, its ClusterIP Service.
*/}}
{{- define "qr-payout.grpcUrl" -}}
{{- $service := include "qr-payout.grpcServiceName" . -}}
{{- printf "http://%s:%v" $service (index .root.Values .component).grpcPort -}}
{{- end -}}

{{/* The Service name gRPC clients use: <release>-<component>-headless under round_robin. */}}
{{- define "qr-payout.grpcServiceName" -}}
{{- if eq .root.Values.grpc.loadBalancing "round_robin" -}}
{{- include "qr-payout.fullname" (dict "root" .root "component" (printf "%s-headless" .component)) -}}
{{- else -}}
{{- include "qr-payout.fullname" . -}}
{{- end -}}
{{- end -}}

{{/* How a gRPC client spreads calls, for gateway and payout. */}}
{{- define "qr-payout.grpcClientEnv" -}}
- name: GRPC_LOAD_BALANCING
  value: {{ .Values.grpc.loadBalancing | quote }}
{{- end -}}

{{/*
mTLS between the components (docs/operators.md "Mutual TLS between services"): the Secret a
workload's certificate is in (.root, .component): grpc.mtls.existingSecret, else its Certificate's.
*/}}
{{- define "qr-payout.grpcTlsSecret" -}}
{{- with .root.Values.grpc.mtls.existingSecret -}}
{{ . }}
{{- else -}}
{{ include "qr-payout.fullname" (dict "root" .root "component" (printf "%s-grpc-tls" .component)) }}
{{- end -}}
{{- end -}}

{{/* Where the mTLS Secret's files are in a pod. */}}
{{- define "qr-payout.grpcTlsDir" -}}/etc/qr-payout/grpc-tls{{- end -}}

{{/* A workload's mTLS env (GRPC_TLS_*, and the health port of a gRPC server, .server) when on. */}}
{{- define "qr-payout.grpcTlsEnv" -}}
{{- if .root.Values.grpc.mtls.enabled }}
{{- $dir := include "qr-payout.grpcTlsDir" . }}
- name: GRPC_TLS_CERT_FILE
  value: {{ printf "%s/tls.crt" $dir | quote }}
- name: GRPC_TLS_KEY_FILE
  value: {{ printf "%s/tls.key" $dir | quote }}
- name: GRPC_TLS_CA_FILE
  value: {{ printf "%s/ca.crt" $dir | quote }}
{{- if .server }}
- name: GRPC_HEALTH_PORT
  value: {{ .root.Values.grpc.mtls.healthPort | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/* Every long-running workload: the gateway and the gRPC workloads. */}}
{{- define "qr-payout.workloads" -}}
gateway,{{ include "qr-payout.grpcWorkloads" . }}
{{- end -}}

{{/*
A workload's values, put in .out.values: `<component>` from values.yaml; a webhook role is
`webhook` overlaid with `webhook.split.<role>`, and the role flags are added to its env.
*/}}
{{- define "qr-payout.workloadValues" -}}
{{- $root := .root -}}
{{- $program := include "qr-payout.program" .name -}}
{{- $values := index $root.Values $program -}}
{{- if and (eq $program "webhook") $root.Values.webhook.split.enabled -}}
{{- $role := trimPrefix "webhook-" .name -}}
{{- $flags := dict "WEBHOOK_DISPATCHER_ENABLED" "false" "WEBHOOK_WORKER_ENABLED" "false" -}}
{{- if eq $role "dispatcher" -}}{{- $_ := set $flags "WEBHOOK_DISPATCHER_ENABLED" "true" -}}{{- end -}}
{{- if eq $role "worker" -}}{{- $_ := set $flags "WEBHOOK_WORKER_ENABLED" "true" -}}{{- end -}}
{{- $base := omit (deepCopy $values) "split" -}}
{{- if ne $role "webhook" -}}
{{- $base = mustMergeOverwrite $base (deepCopy (index $values.split $role)) -}}
{{- end -}}
{{- $_ := set $base "env" (mustMergeOverwrite (deepCopy ($base.env | default dict)) $flags) -}}
{{- $values = $base -}}
{{- end -}}
{{- $_ := set .out "values" $values -}}
{{- end -}}

{{/* The Secret a component reads: its own existingSecret, else the chart's. */}}
{{- define "qr-payout.secretName" -}}
{{- get .values "existingSecret" | default .root.Values.existingSecret -}}
{{- end -}}

{{/*
Environment of every container: pod identity, OpenTelemetry, the metrics port, Kafka, the shared
env map, then the component's env map (which wins).
*/}}
{{- define "qr-payout.env" -}}
{{- $root := .root -}}
- name: POD_NAME
  valueFrom: { fieldRef: { fieldPath: metadata.name } }
- name: POD_NAMESPACE
  valueFrom: { fieldRef: { fieldPath: metadata.namespace } }
- name: OTEL_SERVICE_NAME
  value: {{ include "qr-payout.program" .component | quote }}
- name: OTEL_SDK_DISABLED
  value: {{ empty $root.Values.otel.endpoint | quote }}
{{- with $root.Values.otel.endpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ . | quote }}
- name: OTEL_EXPORTER_OTLP_PROTOCOL
  value: {{ $root.Values.otel.protocol | quote }}
- name: OTEL_TRACES_SAMPLER
  value: {{ $root.Values.otel.sampler | quote }}
- name: OTEL_TRACES_SAMPLER_ARG
  value: {{ $root.Values.otel.samplerArg | quote }}
- name: TRACES_HONOR_CLIENT_SAMPLED
  value: {{ $root.Values.otel.honorClientSampled | quote }}
{{- end }}
{{- $attrs := list (printf "service.version=%s" $root.Chart.AppVersion) "k8s.namespace.name=$(POD_NAMESPACE)" "k8s.pod.name=$(POD_NAME)" (printf "k8s.deployment.name=%s" (include "qr-payout.fullname" .)) }}
{{- range $k, $v := $root.Values.otel.resourceAttributes }}
{{- $attrs = append $attrs (printf "%s=%s" $k $v) }}
{{- end }}
- name: OTEL_RESOURCE_ATTRIBUTES
  value: {{ join "," $attrs | quote }}
- name: METRICS_PORT
  value: {{ $root.Values.metrics.port | quote }}
- name: KAFKA_BROKERS
  value: {{ $root.Values.kafka.brokers | quote }}
{{- with $root.Values.kafka.tls }}
{{- if .enabled }}
- name: KAFKA_TLS
  value: "true"
{{- range $name, $file := dict "KAFKA_TLS_CA_FILE" .caFile "KAFKA_TLS_CERT_FILE" .certFile "KAFKA_TLS_KEY_FILE" .keyFile }}
{{- if $file }}
- name: {{ $name }}
  value: {{ $file | quote }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- with $root.Values.kafka.sasl }}
{{- if and .mechanism (ne .mechanism "none") }}
- name: KAFKA_SASL_MECHANISM
  value: {{ .mechanism | quote }}
{{- end }}
{{- end }}
{{- $env := mustMergeOverwrite (deepCopy $root.Values.env) (deepCopy (get .values "env" | default dict)) }}
{{- range $k, $v := $env }}
- name: {{ $k }}
  value: {{ $v | quote }}
{{- end }}
{{- with $root.Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* A probe: the handler (YAML) plus the timings, component overrides winning. */}}
{{- define "qr-payout.probe" -}}
{{- $timing := mustMergeOverwrite (deepCopy (index .root.Values.probes .kind)) (deepCopy (get (get .values "probes" | default dict) .kind | default dict)) -}}
{{ .handler }}
{{ toYaml $timing }}
{{- end -}}

{{- define "qr-payout.podSpecCommon" -}}
serviceAccountName: {{ get . "serviceAccount" | default (include "qr-payout.fullname" .) }}
automountServiceAccountToken: false
terminationGracePeriodSeconds: {{ .root.Values.terminationGracePeriodSeconds }}
{{- with .root.Values.priorityClassName }}
priorityClassName: {{ . }}
{{- end }}
securityContext:
  {{- toYaml .root.Values.podSecurityContext | nindent 2 }}
{{- with .root.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .root.Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .root.Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .root.Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- $ctx := . }}
{{- with and (not (get . "noSpread")) .root.Values.topologySpreadConstraints }}
topologySpreadConstraints:
  {{- range . }}
  - {{- toYaml . | nindent 4 }}
    labelSelector:
      matchLabels:
        {{- include "qr-payout.selectorLabels" $ctx | nindent 8 }}
    matchLabelKeys: [pod-template-hash]
  {{- end }}
{{- end }}
{{- end -}}

{{/* Pod template metadata: labels and annotations. */}}
{{- define "qr-payout.podMetadata" -}}
labels:
  {{- with .root.Values.podLabels }}
  {{- toYaml (omit . "app.kubernetes.io/name" "app.kubernetes.io/instance" "app.kubernetes.io/component" "app.kubernetes.io/version" "app.kubernetes.io/managed-by" "helm.sh/chart") | nindent 2 }}
  {{- end }}
  {{- include "qr-payout.labels" . | nindent 2 }}
{{- with .root.Values.podAnnotations }}
annotations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* A pod's volumes: the writable /tmp every container gets (the root filesystem is read-only), then extraVolumes. */}}
{{- define "qr-payout.volumes" -}}
volumes:
  - name: tmp
    emptyDir: { sizeLimit: 64Mi }
  {{- if and .grpcTls .root.Values.grpc.mtls.enabled }}
  - name: grpc-tls
    secret:
      secretName: {{ include "qr-payout.grpcTlsSecret" . }}
      defaultMode: 0440
  {{- end }}
  {{- with .root.Values.extraVolumes }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
{{- end -}}

{{/* A container's mounts (.root; .grpcTls: a workload's mTLS Secret): /tmp, then extraVolumeMounts. */}}
{{- define "qr-payout.volumeMounts" -}}
volumeMounts:
  - name: tmp
    mountPath: /tmp
  {{- if and .grpcTls .root.Values.grpc.mtls.enabled }}
  - name: grpc-tls
    mountPath: {{ include "qr-payout.grpcTlsDir" . }}
    readOnly: true
  {{- end }}
  {{- with .root.Values.extraVolumeMounts }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
{{- end -}}

{{/* A Deployment's annotations (deploymentAnnotations), when any. */}}
{{- define "qr-payout.deploymentAnnotations" -}}
{{- with .Values.deploymentAnnotations }}
annotations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* An egress rule from values (`to`, `ports`); an empty `to` means any destination. */}}
{{- define "qr-payout.egressRule" -}}
- {{- with .to }}
  to:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  ports:
    {{- toYaml .ports | nindent 4 }}
{{- end -}}

{{/* Checks across values that the schema cannot express; rendered with the gateway, so always. */}}
{{- define "qr-payout.validate" -}}
{{- if ge (int .Values.preStopSleepSeconds) (int .Values.terminationGracePeriodSeconds) }}
{{- fail (printf "preStopSleepSeconds (%v) must be shorter than terminationGracePeriodSeconds (%v): the kubelet kills the pod at the grace period, before it could drain" .Values.preStopSleepSeconds .Values.terminationGracePeriodSeconds) }}
{{- end }}
{{- with .Values.grpc.mtls }}
{{- if and .enabled (not .existingSecret) (not .certManager.issuerRef.name) }}
{{- fail "grpc.mtls.enabled needs grpc.mtls.certManager.issuerRef.name (a cert-manager issuer) or grpc.mtls.existingSecret (a Secret with tls.crt, tls.key and ca.crt)" }}
{{- end }}
{{- if and .existingSecret .certManager.issuerRef.name }}
{{- fail "grpc.mtls: set certManager.issuerRef.name or existingSecret, not both" }}
{{- end }}
{{- end }}
{{- end -}}

{{/*
The Secret keys a container reads (secret-keys.json), each as its own env var from the component's
Secret: a process never holds another component's secrets. .program: gateway, decoder, fx, payout,
webhook, partner-sim or migrate; .secret: the Secret's name.
*/}}
{{- define "qr-payout.secretEnv" -}}
{{- $keys := index ((.root.Files.Get "secret-keys.json" | fromJson).components) .program -}}
{{- range $keys }}
- name: {{ .key }}
  valueFrom:
    secretKeyRef:
      name: {{ $.secret }}
      key: {{ .key }}
      {{- if .optional }}
      optional: true
      {{- end }}
{{- end }}
{{- end -}}
