// The silent sign-on page's script (Keycloak's documented page, moved out of line for the CSP):
// hands the address the identity server redirected to (with the authorization code or the
// error in it) back to the portal that opened this page in a hidden frame, on our origin only.
parent.postMessage(location.href, location.origin);
