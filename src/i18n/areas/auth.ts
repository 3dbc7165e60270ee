import { defineArea } from '../catalog.js';

/** The sign-in screens: /login, /authenticate, signing out, and their errors. */
export const auth = defineArea({
  en: {
    titles: { signIn: 'Sign in', authenticate: 'Signing in' },
    tagline: 'Guest analytics and marketing for restaurant groups',
    loading: 'Loading…',
    redirecting: 'Taking you to sign in…',
    finishing: 'Finishing sign-in…',
    checking: 'Checking your session…',
    switching: 'Switching account…',
    signingOut: 'Signing you out…',
    signedOut: {
      title: 'You have signed out',
      body: 'Sign in again whenever you are ready.',
      signIn: 'Sign in',
    },
    callbackFailed: {
      title: 'We could not finish signing you in',
      stateMismatch:
        'This sign-in answer does not match the sign-in this browser started. It may be old or come from another tab.',
      exchangeFailed: 'The sign-in server did not accept the sign-in code.',
      providerRefused: 'The sign-in server refused the sign-in ({{code}}).',
      signInAgain: 'Sign in again',
    },
    failed: {
      title: 'Sign-in is unavailable',
      configUnavailable: 'The sign-in service could not be reached. Check your connection and try again.',
      redirectFailed: 'This browser could not start a secure sign-in.',
      storageFailed: 'This browser could not keep your sign-in. Allow site storage and try again.',
      verifyFailed: 'Your account could not be loaded. Try again in a moment.',
      other: 'Something went wrong while signing you in.',
      retry: 'Try again',
    },
  },
  ch: {
    titles: { signIn: '登录', authenticate: '正在登录' },
    tagline: '面向餐饮集团的顾客分析与营销',
    loading: '正在加载…',
    redirecting: '正在前往登录页面…',
    finishing: '正在完成登录…',
    checking: '正在检查您的会话…',
    switching: '正在切换账户…',
    signingOut: '正在退出登录…',
    signedOut: {
      title: '您已退出登录',
      body: '准备好后可随时再次登录。',
      signIn: '登录',
    },
    callbackFailed: {
      title: '无法完成登录',
      stateMismatch: '此登录响应与本浏览器发起的登录不匹配，可能已过期或来自其他标签页。',
      exchangeFailed: '登录服务器未接受此登录代码。',
      providerRefused: '登录服务器拒绝了此次登录（{{code}}）。',
      signInAgain: '重新登录',
    },
    failed: {
      title: '暂时无法登录',
      configUnavailable: '无法连接登录服务。请检查网络连接后重试。',
      redirectFailed: '此浏览器无法发起安全登录。',
      storageFailed: '此浏览器无法保存您的登录状态。请允许网站存储后重试。',
      verifyFailed: '无法加载您的账户，请稍后重试。',
      other: '登录时出现问题。',
      retry: '重试',
    },
  },
  es: {
    titles: { signIn: 'Iniciar sesión', authenticate: 'Iniciando sesión' },
    tagline: 'Análisis de clientes y marketing para grupos de restaurantes',
    loading: 'Cargando…',
    redirecting: 'Le llevamos a iniciar sesión…',
    finishing: 'Completando el inicio de sesión…',
    checking: 'Comprobando su sesión…',
    switching: 'Cambiando de cuenta…',
    signingOut: 'Cerrando su sesión…',
    signedOut: {
      title: 'Ha cerrado sesión',
      body: 'Vuelva a iniciar sesión cuando quiera.',
      signIn: 'Iniciar sesión',
    },
    callbackFailed: {
      title: 'No pudimos completar el inicio de sesión',
      stateMismatch:
        'Esta respuesta de inicio de sesión no coincide con el inicio de sesión que comenzó este navegador. Puede ser antigua o venir de otra pestaña.',
      exchangeFailed: 'El servidor de inicio de sesión no aceptó el código de inicio de sesión.',
      providerRefused: 'El servidor de inicio de sesión rechazó el inicio de sesión ({{code}}).',
      signInAgain: 'Iniciar sesión de nuevo',
    },
    failed: {
      title: 'El inicio de sesión no está disponible',
      configUnavailable:
        'No se pudo contactar con el servicio de inicio de sesión. Compruebe su conexión e inténtelo de nuevo.',
      redirectFailed: 'Este navegador no pudo iniciar un inicio de sesión seguro.',
      storageFailed:
        'Este navegador no pudo guardar su sesión. Permita el almacenamiento del sitio e inténtelo de nuevo.',
      verifyFailed: 'No se pudo cargar su cuenta. Inténtelo de nuevo en un momento.',
      other: 'Algo salió mal al iniciar su sesión.',
      retry: 'Intentar de nuevo',
    },
  },
  jp: {
    titles: { signIn: 'サインイン', authenticate: 'サインイン中' },
    tagline: '飲食グループのための顧客分析とマーケティング',
    loading: '読み込み中…',
    redirecting: 'サインイン画面へ移動しています…',
    finishing: 'サインインを完了しています…',
    checking: 'セッションを確認しています…',
    switching: 'アカウントを切り替えています…',
    signingOut: 'サインアウトしています…',
    signedOut: {
      title: 'サインアウトしました',
      body: 'いつでも再びサインインできます。',
      signIn: 'サインイン',
    },
    callbackFailed: {
      title: 'サインインを完了できませんでした',
      stateMismatch:
        'このサインインの応答は、このブラウザーで開始したサインインと一致しません。古いか、別のタブからの応答である可能性があります。',
      exchangeFailed: 'サインインサーバーがサインインコードを受け付けませんでした。',
      providerRefused: 'サインインサーバーがサインインを拒否しました（{{code}}）。',
      signInAgain: 'もう一度サインイン',
    },
    failed: {
      title: 'サインインを利用できません',
      configUnavailable: 'サインインサービスに接続できませんでした。接続を確認して、もう一度お試しください。',
      redirectFailed: 'このブラウザーでは安全なサインインを開始できませんでした。',
      storageFailed:
        'このブラウザーにサインイン情報を保存できませんでした。サイトデータの保存を許可して、もう一度お試しください。',
      verifyFailed: 'アカウントを読み込めませんでした。しばらくしてからもう一度お試しください。',
      other: 'サインイン中に問題が発生しました。',
      retry: '再試行',
    },
  },
  de: {
    titles: { signIn: 'Anmelden', authenticate: 'Anmeldung läuft' },
    tagline: 'Gästeanalyse und Marketing für Restaurantgruppen',
    loading: 'Wird geladen…',
    redirecting: 'Sie werden zur Anmeldung weitergeleitet…',
    finishing: 'Anmeldung wird abgeschlossen…',
    checking: 'Ihre Sitzung wird geprüft…',
    switching: 'Konto wird gewechselt…',
    signingOut: 'Sie werden abgemeldet…',
    signedOut: {
      title: 'Sie haben sich abgemeldet',
      body: 'Melden Sie sich wieder an, wann immer Sie möchten.',
      signIn: 'Anmelden',
    },
    callbackFailed: {
      title: 'Die Anmeldung konnte nicht abgeschlossen werden',
      stateMismatch:
        'Diese Anmeldeantwort passt nicht zu der Anmeldung, die dieser Browser begonnen hat. Sie ist vielleicht veraltet oder stammt aus einem anderen Tab.',
      exchangeFailed: 'Der Anmeldeserver hat den Anmeldecode nicht angenommen.',
      providerRefused: 'Der Anmeldeserver hat die Anmeldung abgelehnt ({{code}}).',
      signInAgain: 'Erneut anmelden',
    },
    failed: {
      title: 'Anmeldung nicht verfügbar',
      configUnavailable:
        'Der Anmeldedienst ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
      redirectFailed: 'Dieser Browser konnte keine sichere Anmeldung starten.',
      storageFailed:
        'Dieser Browser konnte Ihre Anmeldung nicht speichern. Erlauben Sie den Websitespeicher und versuchen Sie es erneut.',
      verifyFailed: 'Ihr Konto konnte nicht geladen werden. Versuchen Sie es gleich noch einmal.',
      other: 'Bei der Anmeldung ist etwas schiefgelaufen.',
      retry: 'Erneut versuchen',
    },
  },
  fr: {
    titles: { signIn: 'Connexion', authenticate: 'Connexion en cours' },
    tagline: 'Analyse de la clientèle et marketing pour les groupes de restaurants',
    loading: 'Chargement…',
    redirecting: 'Redirection vers la connexion…',
    finishing: 'Finalisation de la connexion…',
    checking: 'Vérification de votre session…',
    switching: 'Changement de compte…',
    signingOut: 'Déconnexion en cours…',
    signedOut: {
      title: 'Vous êtes déconnecté',
      body: 'Reconnectez-vous quand vous le souhaitez.',
      signIn: 'Se connecter',
    },
    callbackFailed: {
      title: 'La connexion n’a pas pu aboutir',
      stateMismatch:
        'Cette réponse de connexion ne correspond pas à la connexion lancée par ce navigateur. Elle est peut-être ancienne ou provient d’un autre onglet.',
      exchangeFailed: 'Le serveur de connexion n’a pas accepté le code de connexion.',
      providerRefused: 'Le serveur de connexion a refusé la connexion ({{code}}).',
      signInAgain: 'Se reconnecter',
    },
    failed: {
      title: 'La connexion est indisponible',
      configUnavailable: 'Le service de connexion est injoignable. Vérifiez votre connexion et réessayez.',
      redirectFailed: 'Ce navigateur n’a pas pu lancer une connexion sécurisée.',
      storageFailed:
        'Ce navigateur n’a pas pu conserver votre connexion. Autorisez le stockage du site et réessayez.',
      verifyFailed: 'Votre compte n’a pas pu être chargé. Réessayez dans un instant.',
      other: 'Un problème est survenu pendant la connexion.',
      retry: 'Réessayer',
    },
  },
});
