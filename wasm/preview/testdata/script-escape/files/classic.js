var a = "</script><script>alert(1)</script>";
var b = '<!-- <script>';
var c = `</SCRIPT ${a} <!--`;
var d = /<!--|<\/script>/i;
var e = /(?<!--)x/;
var f = "\<!--";
<!-- html-like comment at line start is a comment in classic scripts
--> also a comment
// line comment </script> <!-- done
/* block </script> */
if (a </script/.test(b)) {}
