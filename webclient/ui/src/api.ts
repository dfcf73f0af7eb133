// The client's only way to the server: the /json/ API of Zulip with the web session's cookie
// and the CSRF token (the csrftoken cookie echoed in X-CSRFToken).

export class ApiError extends Error {
  code: string;
  status: number;
  data: any;
  constructor(status: number, data: any) {
    super(data && typeof data.msg === 'string' ? data.msg : `HTTP ${status}`);
    this.status = status;
    this.code = (data && data.code) || (status === 0 ? 'NETWORK' : 'BAD_REQUEST');
    this.data = data;
  }
}

export function csrfToken(): string {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : '';
}

// loginRedirect sends the browser to the login page, which brings it back here afterwards.
export function loginRedirect(): void {
  const next = location.pathname + location.search + location.hash;
  location.replace('/login/?next=' + encodeURIComponent(next));
}

export type Params = Record<string, string | number | boolean | object | null | undefined>;

function encode(params: Params | undefined): URLSearchParams {
  const body = new URLSearchParams();
  if (!params) return body;
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    body.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  return body;
}

// call sends one request to /json/PATH and returns the decoded success envelope; an error
// envelope is thrown as ApiError, a missing session sends the browser to the login page.
export async function call(method: string, path: string, params?: Params, signal?: AbortSignal): Promise<any> {
  let url = '/json/' + path;
  const init: RequestInit = { method, credentials: 'same-origin', signal, headers: { 'X-CSRFToken': csrfToken() } };
  const q = encode(params);
  if (method === 'GET') {
    const s = q.toString();
    if (s) url += '?' + s;
  } else {
    init.body = q;
  }
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ApiError(0, null);
  }
  let data: any = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (res.status === 401) {
    loginRedirect();
    throw new ApiError(401, data);
  }
  if (!res.ok || !data || data.result !== 'success') {
    const err = new ApiError(res.status, data);
    const after = res.headers.get('Retry-After');
    if (after) err.data = { ...(data || {}), retryAfter: Number(after) };
    throw err;
  }
  return data;
}

// upload sends one file to POST /json/user_uploads, reporting its progress (0..1).
export function upload(file: File, progress: (f: number) => void): Promise<{ url: string; filename: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/json/user_uploads');
    xhr.setRequestHeader('X-CSRFToken', csrfToken());
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) progress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let data: any = null;
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        data = null;
      }
      if (xhr.status === 200 && data && data.result === 'success') resolve({ url: data.url, filename: data.filename || file.name });
      else reject(new ApiError(xhr.status, data));
    };
    xhr.onerror = () => reject(new ApiError(0, null));
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

// postForm submits a classic form (logout), carrying the CSRF token.
export function postForm(action: string): void {
  const f = document.createElement('form');
  f.method = 'post';
  f.action = action;
  const t = document.createElement('input');
  t.type = 'hidden';
  t.name = 'csrfmiddlewaretoken';
  t.value = csrfToken();
  f.appendChild(t);
  document.body.appendChild(f);
  f.submit();
}
