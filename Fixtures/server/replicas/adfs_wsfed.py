"""The WS-Federation sign-in answer the ADFS replica posts back to Entra's
login.srf (wa=wsignin1.0, wresult, wctx): a RequestSecurityTokenResponse
holding a SAML 1.1 assertion with the user's UPN and ImmutableID, for the
audience urn:federation:MicrosoftOnline, and its check on the Entra side.

A real AD FS signs the assertion with its token-signing certificate (XML
DSig); here both ends are replicas in one process, so the signature value
is an HMAC-SHA256 over the assertion (with the signature element left out)
under a key of this process. Entra refuses a changed or foreign assertion
the same way: "the token's signature does not verify".
"""
import base64
import hashlib
import hmac
import secrets
import time
import xml.etree.ElementTree as ET
from datetime import datetime, timedelta, timezone
from html import escape

AUDIENCE = "urn:federation:MicrosoftOnline"
_KEY = secrets.token_bytes(32)
NS = {"t": "http://schemas.xmlsoap.org/ws/2005/02/trust", "saml": "urn:oasis:names:tc:SAML:1.0:assertion",
      "ds": "http://www.w3.org/2000/09/xmldsig#", "wsp": "http://schemas.xmlsoap.org/ws/2004/09/policy",
      "wsa": "http://www.w3.org/2005/08/addressing"}
_SIG = '<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignatureValue>{}</ds:SignatureValue></ds:Signature>'


def _stamp(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def _mac(assertion_without_signature):
    return base64.b64encode(hmac.new(_KEY, assertion_without_signature.encode(), hashlib.sha256).digest()).decode()


def immutable_id(upn):
    return base64.b64encode(hashlib.md5(upn.lower().encode()).digest()).decode()


def build_wresult(upn, issuer, lifetime=3600):
    now = datetime.now(timezone.utc)
    start, end = _stamp(now), _stamp(now + timedelta(seconds=lifetime))
    aid = "_" + secrets.token_hex(16)
    subject = (f'<saml:Subject><saml:NameIdentifier Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">'
               f'{escape(immutable_id(upn))}</saml:NameIdentifier><saml:SubjectConfirmation><saml:ConfirmationMethod>'
               f'urn:oasis:names:tc:SAML:1.0:cm:bearer</saml:ConfirmationMethod></saml:SubjectConfirmation></saml:Subject>')
    body = (f'<saml:Assertion MajorVersion="1" MinorVersion="1" AssertionID="{aid}" Issuer="{escape(issuer)}" '
            f'IssueInstant="{start}" xmlns:saml="urn:oasis:names:tc:SAML:1.0:assertion">'
            f'<saml:Conditions NotBefore="{start}" NotOnOrAfter="{end}"><saml:AudienceRestrictionCondition>'
            f'<saml:Audience>{AUDIENCE}</saml:Audience></saml:AudienceRestrictionCondition></saml:Conditions>'
            f'<saml:AttributeStatement>{subject}'
            f'<saml:Attribute AttributeName="UPN" AttributeNamespace="http://schemas.xmlsoap.org/claims">'
            f'<saml:AttributeValue>{escape(upn)}</saml:AttributeValue></saml:Attribute>'
            f'<saml:Attribute AttributeName="ImmutableID" AttributeNamespace="http://schemas.microsoft.com/LiveID/Federation/2008/05">'
            f'<saml:AttributeValue>{escape(immutable_id(upn))}</saml:AttributeValue></saml:Attribute>'
            f'</saml:AttributeStatement>'
            f'<saml:AuthenticationStatement AuthenticationMethod="urn:oasis:names:tc:SAML:1.0:am:password" '
            f'AuthenticationInstant="{start}">{subject}</saml:AuthenticationStatement>'
            f'</saml:Assertion>')
    signed = body.replace("</saml:Assertion>", _SIG.format(_mac(body)) + "</saml:Assertion>")
    return (f'<t:RequestSecurityTokenResponse xmlns:t="http://schemas.xmlsoap.org/ws/2005/02/trust">'
            f'<t:Lifetime><wsu:Created xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd">{start}</wsu:Created>'
            f'<wsu:Expires xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd">{end}</wsu:Expires></t:Lifetime>'
            f'<wsp:AppliesTo xmlns:wsp="http://schemas.xmlsoap.org/ws/2004/09/policy"><wsa:EndpointReference xmlns:wsa="http://www.w3.org/2005/08/addressing">'
            f'<wsa:Address>{AUDIENCE}</wsa:Address></wsa:EndpointReference></wsp:AppliesTo>'
            f'<t:RequestedSecurityToken>{signed}</t:RequestedSecurityToken>'
            f'<t:TokenType>urn:oasis:names:tc:SAML:1.0:assertion</t:TokenType>'
            f'<t:RequestType>http://schemas.xmlsoap.org/ws/2005/02/trust/Issue</t:RequestType>'
            f'<t:KeyType>http://schemas.xmlsoap.org/ws/2005/05/identity/NoProofKey</t:KeyType>'
            f'</t:RequestSecurityTokenResponse>')


def read_wresult(wresult, expected_issuer):
    """(upn, "") for a valid answer of `expected_issuer`, else (None, why)."""
    start, end = wresult.find("<saml:Assertion"), wresult.find("</saml:Assertion>")
    if start < 0 or end < 0:
        return None, "no SAML assertion in wresult"
    assertion = wresult[start:end + len("</saml:Assertion>")]
    sig_start = assertion.find("<ds:Signature")
    sig_end = assertion.find("</ds:Signature>")
    if sig_start < 0 or sig_end < 0:
        return None, "the assertion is not signed"
    signature = ET.fromstring(assertion[sig_start:sig_end + len("</ds:Signature>")]).findtext("ds:SignatureValue", "", NS)
    unsigned = assertion[:sig_start] + assertion[sig_end + len("</ds:Signature>"):]
    if not hmac.compare_digest(signature, _mac(unsigned)):
        return None, "the token's signature does not verify"
    try:
        node = ET.fromstring(assertion)
    except ET.ParseError:
        return None, "the assertion is not XML"
    if node.get("Issuer") != expected_issuer:
        return None, "the token was issued by another identity provider"
    if node.findtext("saml:Conditions/saml:AudienceRestrictionCondition/saml:Audience", "", NS) != AUDIENCE:
        return None, "the token is for another audience"
    not_after = node.find("saml:Conditions", NS).get("NotOnOrAfter", "")
    try:
        expired = datetime.strptime(not_after, "%Y-%m-%dT%H:%M:%S.000Z").replace(tzinfo=timezone.utc).timestamp() < time.time()
    except ValueError:
        expired = True
    if expired:
        return None, "the token has expired"
    for attr in node.iter("{%s}Attribute" % NS["saml"]):
        if attr.get("AttributeName") == "UPN":
            return attr.findtext("saml:AttributeValue", "", NS), ""
    return None, "the token has no UPN"
