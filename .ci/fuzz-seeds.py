#!/usr/bin/env python3
# Regenerates the conformance-derived seeds of the fuzz targets (corpus-* files next to the hand-written
# seeds): every policy, request URL, GraphQL body and domain pattern the conformance corpus and the
# examples hold, in the byte layout each target reads with its FuzzedDataProvider. Needs PyYAML.
#   python3 .ci/fuzz-seeds.py .
import yaml, json, os, glob, hashlib, sys
root = sys.argv[1]
conf = [f for f in glob.glob(root + '/conformance-tests/src/test/resources/conformance/**/*.yaml', recursive=True)]
conf += glob.glob('/work/shared/conformance/examples/**/*.yaml', recursive=True)
conf += glob.glob(root + '/examples/**/*.yaml', recursive=True)
policies, bodies, requests, globs = {}, {}, {}, {}
def add(d, data):
    d[hashlib.sha1(data).hexdigest()[:16]] = data
class Loader(yaml.SafeLoader): pass
for f in conf:
    try:
        docs = list(yaml.load_all(open(f, encoding='utf-8'), Loader=Loader))
    except Exception:
        raw = open(f, 'rb').read()
        if len(raw) < 65536: add(policies, raw)
        continue
    for doc in docs:
        if not isinstance(doc, dict): continue
        if 'allowedDomains' in doc or ('name' in doc and not any(k in doc for k in ('cases','validate','update','effective','describe'))):
            add(policies, yaml.safe_dump(doc, allow_unicode=True).encode())
        for sec in ('validate', 'describe', 'update'):
            for c in doc.get(sec) or []:
                p = c.get('policy') if isinstance(c, dict) else None
                if isinstance(p, dict):
                    add(policies, yaml.safe_dump(p, allow_unicode=True).encode())
                    for e in p.get('allowedDomains') or []:
                        if isinstance(e, dict) and isinstance(e.get('pattern'), str):
                            add(globs, e['pattern'].encode() + b'\\q' + e['pattern'].replace('*', 'x').encode() + b'\x00')
        for c in doc.get('cases') or []:
            if not isinstance(c, dict): continue
            for p in (c.get('policies') or []) + (doc.get('policies') or []):
                if isinstance(p, dict):
                    add(policies, yaml.safe_dump(p, allow_unicode=True).encode())
            r = c.get('request') or {}
            url = r.get('url')
            if isinstance(url, str) and '://' in url:
                rest = url.split('://', 1)[1]
                host, _, path = rest.partition('/')
                host = host.split(':')[0]
                m = r.get('method') or 'GET'
                add(requests, (m + '\\q/' + path + '\\q' + host).encode() + b'\x00\x00')
            g = r.get('graphql')
            if isinstance(g, dict) and 'query' in g:
                body = {'query': g['query']}
                if 'operationName' in g: body['operationName'] = g['operationName']
                if 'variables' in g: body['variables'] = g['variables']
                add(bodies, json.dumps(body).encode() + b'\x00\x00\x00')
out = {
  'policy-model/src/test/resources/dev/stockade/policy/model/PolicyReaderFuzzTestInputs/readAndValidate': policies,
  'policy-model/src/test/resources/dev/stockade/policy/model/PolicyReaderFuzzTestInputs/compileAndMatchGlobs': globs,
  'graphql-fence/src/test/resources/dev/stockade/policy/graphql/RequestBodyFuzzTestInputs/fuzzRequestBody': bodies,
  'policy-compiler/src/test/resources/dev/stockade/policy/compiler/DecideFuzzTestInputs/fuzzDecide': requests,
}
for d, seeds in out.items():
    os.makedirs(os.path.join(root, d), exist_ok=True)
    for name, data in seeds.items():
        open(os.path.join(root, d, 'corpus-' + name), 'wb').write(data)
    print(d, len(seeds))
