import { defineArea } from '../catalog.js';

/** The support menu: exporting the event log and sending it to platform support. */
export const support = defineArea({
  en: {
    label: 'Support',
    export: 'Download event log',
    send: 'Send to support',
    sending: 'Sending to support…',
    sent: 'Sent to support (reference {{id}}).',
    failed: 'The log could not be sent: {{message}}',
    dismiss: 'Dismiss',
  },
  ch: {
    label: '支持',
    export: '下载事件日志',
    send: '发送给支持团队',
    sending: '正在发送给支持团队…',
    sent: '已发送给支持团队（编号 {{id}}）。',
    failed: '日志未能发送：{{message}}',
    dismiss: '关闭',
  },
  es: {
    label: 'Soporte',
    export: 'Descargar registro de eventos',
    send: 'Enviar a soporte',
    sending: 'Enviando a soporte…',
    sent: 'Enviado a soporte (referencia {{id}}).',
    failed: 'No se pudo enviar el registro: {{message}}',
    dismiss: 'Cerrar',
  },
  jp: {
    label: 'サポート',
    export: 'イベントログをダウンロード',
    send: 'サポートに送信',
    sending: 'サポートに送信中…',
    sent: 'サポートに送信しました（参照番号 {{id}}）。',
    failed: 'ログを送信できませんでした：{{message}}',
    dismiss: '閉じる',
  },
  de: {
    label: 'Support',
    export: 'Ereignisprotokoll herunterladen',
    send: 'An den Support senden',
    sending: 'Wird an den Support gesendet…',
    sent: 'An den Support gesendet (Referenz {{id}}).',
    failed: 'Das Protokoll konnte nicht gesendet werden: {{message}}',
    dismiss: 'Schließen',
  },
  fr: {
    label: 'Assistance',
    export: 'Télécharger le journal des événements',
    send: 'Envoyer à l’assistance',
    sending: 'Envoi à l’assistance…',
    sent: 'Envoyé à l’assistance (référence {{id}}).',
    failed: 'Le journal n’a pas pu être envoyé : {{message}}',
    dismiss: 'Fermer',
  },
});
