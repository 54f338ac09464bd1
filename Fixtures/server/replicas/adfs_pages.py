"""AD FS's forms sign-in page and the Azure MFA adapter's page, in our own
markup with the ids, names and texts of the pages Versent/saml2aws keeps as
test data (pkg/provider/aad/testdata/ADFS.html — AD FS 2019 —,
pkg/provider/adfs2/example/{loginpage,passcode}.html — 2012 R2/2016). See
adfs.md. `theme` "2019" shows the error in span#errorText (role alert),
"2016" in label#errorText."""
from .replica_kit import esc

WRONG = "Incorrect user ID or password. Type the correct user ID and password, and try again."


def _frame(body):
    return f"""<!DOCTYPE html>
<html lang="en-US">
    <head>
        <meta http-equiv="X-UA-Compatible" content="IE=edge"/>
        <meta name="viewport" content="width=device-width, initial-scale=1.0, user-scalable=1"/>
        <meta http-equiv="content-type" content="text/html;charset=UTF-8" />
        <meta http-equiv="cache-control" content="no-cache,no-store"/>
        <meta name='mswebdialog-title' content='Connecting to Fabrikam'/>
        <title>Sign In</title>
        <script type='text/javascript'>
//<![CDATA[
function LoginErrors(){{this.userNameFormatError = 'Enter your user ID in the format \\u0026quot;domain\\\\user\\u0026quot; or \\u0026quot;user@domain\\u0026quot;.'; this.passwordEmpty = 'Enter your password.';}}
//]]>
</script>
        <link rel="stylesheet" type="text/css" href="/adfs/portal/css/style.css" />
    </head>
    <body dir="ltr" class="body">
    <div id="noScript" style="position:static; width:100%; height:100%; z-index:100">
        <h1>JavaScript required</h1>
        <p>JavaScript is required. This web browser does not support JavaScript or JavaScript in this web browser is not enabled.</p>
        <p>To find out if your web browser supports JavaScript or to enable JavaScript, see web browser help.</p>
    </div>
    <script type="text/javascript" language="JavaScript">
         document.getElementById("noScript").style.display = "none";
    </script>
    <div id="fullPage">
        <div id="contentWrapper" class="float">
            <div id="content">
                <div id="header"><h4>Fabrikam</h4></div>
                <main>
                    <div id="workArea">
{body}
                    </div>
                </main>
            </div>
        </div>
    </div>
    </body>
</html>"""


def _error(theme, text):
    if theme == "2016":
        return f'<label id="errorText" for="">{esc(text)}</label>'
    return f'<span id="errorText" for="" aria-live="assertive" role="alert">{esc(text)}</span>'


def login(action, username="", error="", theme="2019"):
    return _frame(f"""    <div id="authArea" class="groupMargin">
    <div id="loginArea">
        <div id="loginMessage" class="groupMargin">Sign in</div>
        <form method="post" id="loginForm" autocomplete="off" novalidate="novalidate" onKeyPress="if (event &amp;&amp; event.keyCode == 13) Login.submitLoginRequest();" action="{esc(action)}" >
            <div id="error" class="fieldMargin error smallText">
                {_error(theme, error)}
            </div>
            <div id="formsAuthenticationArea">
                <div id="userNameArea">
                    <label id="userNameInputLabel" for="userNameInput" class="hidden">User Account</label>
                    <input id="userNameInput" name="UserName" type="email" value="{esc(username)}" tabindex="1" class="text fullWidth"
                        spellcheck="false" placeholder="someone@example.com" autocomplete="off"/>
                </div>
                <div id="passwordArea">
                    <label id="passwordInputLabel" for="passwordInput" class="hidden">Password</label>
                    <input id="passwordInput" name="Password" type="password" tabindex="2" class="text fullWidth"
                        placeholder="Password" autocomplete="off"/>
                </div>
                <div id="kmsiArea" style="display:none">
                    <input type="checkbox" name="Kmsi" id="kmsiInput" value="true" tabindex="3" />
                    <label for="kmsiInput">Keep me signed in</label>
                </div>
                <div id="submissionArea" class="submitMargin">
                    <span id="submitButton" class="submit" tabindex="4" role="button"
                        onKeyPress="if (event &amp;&amp; event.keyCode == 32) Login.submitLoginRequest();"
                        onclick="return Login.submitLoginRequest();">Sign in</span>
                </div>
            </div>
            <input id="optionForms" type="hidden" name="AuthMethod" value="FormsAuthentication"/>
        </form>
    </div>
    </div>""")


def mfa(action, context, error="", theme="2019"):
    """The Azure MFA adapter's code page: hidden AuthMethod and Context (kept
    as is), VerificationCode."""
    return _frame(f"""    <div id="authArea" class="groupMargin">
        <div class="fieldMargin bigText">For security reasons, we require additional information to verify your account</div>
        <form method="post" id="loginForm" autocomplete="off" action="{esc(action)}">
            <input id="authMethod" type="hidden" name="AuthMethod" value="AzureMfaAuthentication" />
            <input id="context" type="hidden" name="Context" value="{esc(context)}" />
            <div id="error" class="fieldMargin error smallText">
                {_error(theme, error)}
            </div>
            <p id="instructions">Enter the verification code from your authenticator app.</p>
            <input id="verificationCodeInput" name="VerificationCode" type="text" value="" class="text fullWidth" autocomplete="off" autofocus="" />
            <input id="signInButton" type="submit" class="submit" value="Sign in" />
        </form>
    </div>""")
