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
    loadFailed: {
      title: 'This page could not load',
      body: 'Part of the app could not be downloaded. Check your connection and reload the page.',
      reload: 'Reload',
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
    loadFailed: {
      title: '无法加载此页面',
      body: '应用的部分内容无法下载。请检查网络连接并重新加载页面。',
      reload: '重新加载',
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
    loadFailed: {
      title: 'No se pudo cargar esta página',
      body: 'No se pudo descargar una parte de la aplicación. Compruebe su conexión y vuelva a cargar la página.',
      reload: 'Volver a cargar',
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
    loadFailed: {
      title: 'このページを読み込めませんでした',
      body: 'アプリの一部をダウンロードできませんでした。接続を確認して、ページを再読み込みしてください。',
      reload: '再読み込み',
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
    loadFailed: {
      title: 'Diese Seite konnte nicht geladen werden',
      body: 'Ein Teil der App konnte nicht heruntergeladen werden. Prüfen Sie Ihre Verbindung und laden Sie die Seite neu.',
      reload: 'Neu laden',
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
    loadFailed: {
      title: 'Cette page n’a pas pu se charger',
      body: 'Une partie de l’application n’a pas pu être téléchargée. Vérifiez votre connexion et rechargez la page.',
      reload: 'Recharger',
    },
    toDashboard: 'Aller au tableau de bord',
    toAccount: 'Ouvrir les paramètres du compte',
  },
});
