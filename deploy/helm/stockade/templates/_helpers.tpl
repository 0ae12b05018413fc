{{/* The release's full name: the release name, with "-stockade" unless it already says so; 63 characters at most. */}}
{{- define "stockade.fullname" -}}
{{- if contains "stockade" .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-stockade" .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Labels every object carries; the component is the caller's. */}}
{{- define "stockade.labels" -}}
app.kubernetes.io/name: stockade
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{/* The labels a component's pods are selected by: (dict "root" $ "component" "platform"). */}}
{{- define "stockade.selector" -}}
app.kubernetes.io/name: stockade
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* repository:tag, the tag defaulting to the chart's appVersion: (dict "root" $ "image" .Values.x.image). */}}
{{- define "stockade.image" -}}
{{- printf "%s:%s" .image.repository (default .root.Chart.AppVersion .image.tag) -}}
{{- end -}}

{{- define "stockade.serviceAccountName" -}}
{{- default (include "stockade.fullname" .) .Values.serviceAccount.name -}}
{{- end -}}

{{/* The secret holding the setup code: the operator's, else the generated <release>-hub-setup (spec). */}}
{{- define "stockade.hubSetupSecret" -}}
{{- default (printf "%s-hub-setup" .Release.Name) .Values.hub.setup.existingSecret -}}
{{- end -}}

{{/* The platform as pods in the cluster reach it (sandboxes, the proxy replicas, the client API service). */}}
{{- define "stockade.internalUrl" -}}
{{- printf "http://%s.%s.svc:%v" (include "stockade.fullname" .) .Release.Namespace .Values.service.port -}}
{{- end -}}

{{/*
Every secret the platform reads by name, mounted where it reads it (<dataDir>/secrets/<name>/<key>): the setup code,
the hub access token and each inference backend's key. A dict from secret name to true, so a secret named twice is
mounted once.
*/}}
{{- define "stockade.platformSecrets" -}}
{{- $names := dict (include "stockade.hubSetupSecret" .) true -}}
{{- with .Values.hub.accessTokenSecret.name -}}{{- $_ := set $names . true -}}{{- end -}}
{{- range $backend, $v := .Values.inference -}}
{{- if and (kindIs "map" $v) $v.apiKeySecret -}}{{- $_ := set $names $v.apiKeySecret true -}}{{- end -}}
{{- end -}}
{{- toYaml (keys $names | sortAlpha) -}}
{{- end -}}

{{/* A volume name for a secret name (secret names may hold dots, volume names may not). */}}
{{- define "stockade.secretVolume" -}}
{{- printf "secret-%s" (sha256sum . | trunc 16) -}}
{{- end -}}
