const html = "</script><!--<script>";
export default html;
