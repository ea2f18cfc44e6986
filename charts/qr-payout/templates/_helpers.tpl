{{/* Name of a component's resources: <release>-<component>. */}}
{{- define "qr-payout.fullname" -}}
{{- printf "%s-%s" .root.Release.Name .component | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "qr-payout.selectorLabels" -}}
app.kubernetes.io/name: qr-payout
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "qr-payout.labels" -}}
{{ include "qr-payout.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end -}}

{{- define "qr-payout.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{/* Entry point of a component inside the image. */}}
{{- define "qr-payout.main" -}}
{{- if eq . "gateway" -}}gateway/dist/main.js
{{- else if eq . "partnerSim" -}}partner-sim/dist/main.js
{{- else -}}services/{{ . }}/dist/main.js
{{- end -}}
{{- end -}}

{{/* Environment every component shares: the common map, the service name for traces, the Secret. */}}
{{- define "qr-payout.env" -}}
{{- range $k, $v := .root.Values.common }}
- name: {{ $k }}
  value: {{ $v | quote }}
{{- end }}
- name: OTEL_SERVICE_NAME
  value: {{ .component | quote }}
- name: OTEL_SDK_DISABLED
  value: {{ empty .root.Values.common.OTEL_EXPORTER_OTLP_ENDPOINT | quote }}
{{- range $k, $v := .values.env }}
- name: {{ $k }}
  value: {{ $v | quote }}
{{- end }}
{{- end -}}

{{- define "qr-payout.podSpecCommon" -}}
serviceAccountName: {{ .root.Release.Name }}
automountServiceAccountToken: false
terminationGracePeriodSeconds: {{ .root.Values.terminationGracePeriodSeconds }}
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
{{- end -}}
