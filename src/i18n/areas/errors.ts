import { defineArea } from '../catalog.js';

/** The pages that explain why a page is not shown: no access, access denied, not found, load failure. */
export const errors = defineArea({
  en: {
    noAccess: {
      title: 'Your company does not have this feature',
      body: 'This page belongs to a feature your company’s plan does not include. Ask your account owner or Regulars support to turn it on.',
    },
    accessDenied: {
      title: 'Access denied',
      body: 'Your role does not allow this page. Ask an owner or admin of your company if you need it.',
    },
    notFound: {
      title: 'Page not found',
      body: 'There is no page at this address. Check the link, or go back to the dashboard.',
    },
    custom: {
      error1: {
        title: 'This page could not load',
        body: 'The code for this page could not be downloaded, maybe because the connection dropped or a new version was just released. Retry to load it again.',
      },
      error2: {
        title: 'This page could not be styled',
        body: 'The styles for this page could not be downloaded, so it would not display correctly. Retry to load it again.',
      },
      error3: {
        title: 'The server cannot be reached',
        body: 'Regulars could not reach its server. Check your connection; the page will work again once the server answers.',
      },
      error4: {
        title: 'Your session could not be restored',
        body: 'Your sign-in could not be confirmed. Retry, or sign in again from the dashboard.',
      },
      error5: {
        title: 'Something unexpected went wrong',
        body: 'The page stopped because of an unexpected error. Retry; if it happens again, contact Regulars support.',
      },
      error6: {
        title: 'Regulars is busy right now',
        body: 'The service is under maintenance or has too many requests. Wait a minute and retry.',
      },
      retry: 'Retry',
      home: 'Go to the dashboard',
      code: 'Error {{code}}',
    },
    toDashboard: 'Go to the dashboard',
    toAccount: 'Open account settings',
  },
  ch: {
    noAccess: {
      title: '您的公司未开通此功能',
      body: '此页面属于您公司套餐未包含的功能。请联系账户所有者或 Regulars 支持团队开通。',
    },
    accessDenied: {
      title: '拒绝访问',
      body: '您的角色无权访问此页面。如有需要，请联系贵公司的所有者或管理员。',
    },
    notFound: {
      title: '找不到页面',
      body: '此地址没有页面。请检查链接，或返回仪表板。',
    },
    custom: {
      error1: {
        title: '此页面无法加载',
        body: '无法下载此页面的代码，可能是网络中断或刚发布了新版本。请重试以重新加载。',
      },
      error2: {
        title: '此页面的样式无法加载',
        body: '无法下载此页面的样式，页面将无法正确显示。请重试以重新加载。',
      },
      error3: {
        title: '无法连接到服务器',
        body: 'Regulars 无法连接到服务器。请检查网络连接；服务器恢复响应后页面即可正常使用。',
      },
      error4: { title: '无法恢复您的会话', body: '无法确认您的登录状态。请重试，或从仪表板重新登录。' },
      error5: {
        title: '发生意外错误',
        body: '页面因意外错误而停止。请重试；如果问题再次出现，请联系 Regulars 支持团队。',
      },
      error6: { title: 'Regulars 当前繁忙', body: '服务正在维护或请求过多。请稍等一分钟后重试。' },
      retry: '重试',
      home: '前往仪表板',
      code: '错误 {{code}}',
    },
    toDashboard: '前往仪表板',
    toAccount: '打开账户设置',
  },
  es: {
    noAccess: {
      title: 'Su empresa no tiene esta función',
      body: 'Esta página pertenece a una función que el plan de su empresa no incluye. Pida a la persona propietaria de la cuenta o al soporte de Regulars que la active.',
    },
    accessDenied: {
      title: 'Acceso denegado',
      body: 'Su rol no permite ver esta página. Si la necesita, consulte a una persona propietaria o administradora de su empresa.',
    },
    notFound: {
      title: 'Página no encontrada',
      body: 'No hay ninguna página en esta dirección. Compruebe el enlace o vuelva al panel.',
    },
    custom: {
      error1: {
        title: 'No se pudo cargar esta página',
        body: 'No se pudo descargar el código de esta página, quizá porque se cortó la conexión o se acaba de publicar una nueva versión. Vuelva a intentarlo.',
      },
      error2: {
        title: 'No se pudieron cargar los estilos de esta página',
        body: 'No se pudieron descargar los estilos de esta página, por lo que no se mostraría correctamente. Vuelva a intentarlo.',
      },
      error3: {
        title: 'No se puede contactar con el servidor',
        body: 'Regulars no pudo contactar con su servidor. Compruebe su conexión; la página volverá a funcionar cuando el servidor responda.',
      },
      error4: {
        title: 'No se pudo restaurar su sesión',
        body: 'No se pudo confirmar su inicio de sesión. Vuelva a intentarlo o inicie sesión de nuevo desde el panel.',
      },
      error5: {
        title: 'Se produjo un error inesperado',
        body: 'La página se detuvo por un error inesperado. Vuelva a intentarlo; si se repite, contacte con el soporte de Regulars.',
      },
      error6: {
        title: 'Regulars está ocupado en este momento',
        body: 'El servicio está en mantenimiento o recibe demasiadas solicitudes. Espere un minuto y vuelva a intentarlo.',
      },
      retry: 'Reintentar',
      home: 'Ir al panel',
      code: 'Error {{code}}',
    },
    toDashboard: 'Ir al panel',
    toAccount: 'Abrir la configuración de la cuenta',
  },
  jp: {
    noAccess: {
      title: 'この機能はご契約に含まれていません',
      body: 'このページは、貴社のプランに含まれていない機能に属しています。アカウントの所有者または Regulars サポートに有効化をご依頼ください。',
    },
    accessDenied: {
      title: 'アクセスが拒否されました',
      body: 'あなたのロールではこのページを表示できません。必要な場合は、貴社の所有者または管理者にお問い合わせください。',
    },
    notFound: {
      title: 'ページが見つかりません',
      body: 'このアドレスにはページがありません。リンクを確認するか、ダッシュボードに戻ってください。',
    },
    custom: {
      error1: {
        title: 'このページを読み込めませんでした',
        body: 'このページのコードをダウンロードできませんでした。接続が切れたか、新しいバージョンが公開された可能性があります。再試行してください。',
      },
      error2: {
        title: 'このページのスタイルを読み込めませんでした',
        body: 'このページのスタイルをダウンロードできなかったため、正しく表示できません。再試行してください。',
      },
      error3: {
        title: 'サーバーに接続できません',
        body: 'Regulars がサーバーに接続できませんでした。接続を確認してください。サーバーが応答すればページは再び使えます。',
      },
      error4: {
        title: 'セッションを復元できませんでした',
        body: 'サインイン状態を確認できませんでした。再試行するか、ダッシュボードからもう一度サインインしてください。',
      },
      error5: {
        title: '予期しないエラーが発生しました',
        body: '予期しないエラーのためページが停止しました。再試行してください。再発する場合は Regulars サポートにご連絡ください。',
      },
      error6: {
        title: 'Regulars は現在混み合っています',
        body: 'メンテナンス中か、リクエストが多すぎます。1 分ほど待ってから再試行してください。',
      },
      retry: '再試行',
      home: 'ダッシュボードへ',
      code: 'エラー {{code}}',
    },
    toDashboard: 'ダッシュボードへ移動',
    toAccount: 'アカウント設定を開く',
  },
  de: {
    noAccess: {
      title: 'Ihr Unternehmen hat diese Funktion nicht',
      body: 'Diese Seite gehört zu einer Funktion, die der Tarif Ihres Unternehmens nicht enthält. Bitten Sie die Kontoinhaberin oder den Kontoinhaber oder den Regulars-Support, sie freizuschalten.',
    },
    accessDenied: {
      title: 'Zugriff verweigert',
      body: 'Ihre Rolle erlaubt diese Seite nicht. Wenden Sie sich bei Bedarf an eine Inhaberin, einen Inhaber oder einen Admin Ihres Unternehmens.',
    },
    notFound: {
      title: 'Seite nicht gefunden',
      body: 'Unter dieser Adresse gibt es keine Seite. Prüfen Sie den Link oder kehren Sie zum Dashboard zurück.',
    },
    custom: {
      error1: {
        title: 'Diese Seite konnte nicht geladen werden',
        body: 'Der Code dieser Seite konnte nicht heruntergeladen werden, vielleicht weil die Verbindung abbrach oder gerade eine neue Version erschienen ist. Versuchen Sie es erneut.',
      },
      error2: {
        title: 'Die Darstellung dieser Seite konnte nicht geladen werden',
        body: 'Die Stile dieser Seite konnten nicht heruntergeladen werden, daher würde sie nicht richtig angezeigt. Versuchen Sie es erneut.',
      },
      error3: {
        title: 'Der Server ist nicht erreichbar',
        body: 'Regulars konnte seinen Server nicht erreichen. Prüfen Sie Ihre Verbindung; die Seite funktioniert wieder, sobald der Server antwortet.',
      },
      error4: {
        title: 'Ihre Sitzung konnte nicht wiederhergestellt werden',
        body: 'Ihre Anmeldung konnte nicht bestätigt werden. Versuchen Sie es erneut oder melden Sie sich über das Dashboard neu an.',
      },
      error5: {
        title: 'Ein unerwarteter Fehler ist aufgetreten',
        body: 'Die Seite wurde wegen eines unerwarteten Fehlers angehalten. Versuchen Sie es erneut; tritt er wieder auf, wenden Sie sich an den Regulars-Support.',
      },
      error6: {
        title: 'Regulars ist gerade ausgelastet',
        body: 'Der Dienst wird gewartet oder erhält zu viele Anfragen. Warten Sie eine Minute und versuchen Sie es erneut.',
      },
      retry: 'Erneut versuchen',
      home: 'Zum Dashboard',
      code: 'Fehler {{code}}',
    },
    toDashboard: 'Zum Dashboard',
    toAccount: 'Kontoeinstellungen öffnen',
  },
  fr: {
    noAccess: {
      title: 'Votre entreprise n’a pas cette fonctionnalité',
      body: 'Cette page fait partie d’une fonctionnalité que l’offre de votre entreprise n’inclut pas. Demandez au propriétaire du compte ou au support Regulars de l’activer.',
    },
    accessDenied: {
      title: 'Accès refusé',
      body: 'Votre rôle ne permet pas d’accéder à cette page. Adressez-vous à un propriétaire ou à un administrateur de votre entreprise si vous en avez besoin.',
    },
    notFound: {
      title: 'Page introuvable',
      body: 'Il n’y a aucune page à cette adresse. Vérifiez le lien ou revenez au tableau de bord.',
    },
    custom: {
      error1: {
        title: 'Cette page n’a pas pu se charger',
        body: 'Le code de cette page n’a pas pu être téléchargé, peut-être à cause d’une coupure de connexion ou d’une nouvelle version. Réessayez.',
      },
      error2: {
        title: 'Les styles de cette page n’ont pas pu se charger',
        body: 'Les styles de cette page n’ont pas pu être téléchargés, elle ne s’afficherait donc pas correctement. Réessayez.',
      },
      error3: {
        title: 'Le serveur est injoignable',
        body: 'Regulars n’a pas pu joindre son serveur. Vérifiez votre connexion ; la page fonctionnera de nouveau dès que le serveur répondra.',
      },
      error4: {
        title: 'Votre session n’a pas pu être restaurée',
        body: 'Votre connexion n’a pas pu être confirmée. Réessayez, ou reconnectez-vous depuis le tableau de bord.',
      },
      error5: {
        title: 'Une erreur inattendue est survenue',
        body: 'La page s’est arrêtée à cause d’une erreur inattendue. Réessayez ; si cela se reproduit, contactez le support Regulars.',
      },
      error6: {
        title: 'Regulars est très sollicité',
        body: 'Le service est en maintenance ou reçoit trop de requêtes. Patientez une minute puis réessayez.',
      },
      retry: 'Réessayer',
      home: 'Aller au tableau de bord',
      code: 'Erreur {{code}}',
    },
    toDashboard: 'Aller au tableau de bord',
    toAccount: 'Ouvrir les paramètres du compte',
  },
});
