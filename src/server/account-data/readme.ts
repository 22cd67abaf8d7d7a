/**
 * The README.txt of a person's data archive, in English and French together: the archive is a
 * file kept outside the portal, read by whoever opens it, in either language.
 */
export const ARCHIVE_README = `YOUR DATA
=========

This archive holds what the service keeps about you, as you may see it in the portal.

- README.txt: this file.
- account.json: your account (your profile as it is now, each earlier version and its
  history), and the list of the files you uploaded.
- documents/<kind>/<number>.json: each of your applications and other documents: its data now,
  every earlier version, and its history (what was done, when and by whom, as the portal shows
  it to you).
- messages.json: the messages of your inbox.
- uploads/<id>-<name>: the files you uploaded, as you uploaded them.

Dates and times are in UTC (ISO 8601). The .json files can be opened with any text editor.

VOS DONNÉES
===========

Cette archive contient ce que le service conserve à votre sujet, tel que vous pouvez le voir
dans le portail.

- README.txt : ce fichier.
- account.json : votre compte (votre profil actuel, chacune de ses versions antérieures et son
  historique) et la liste des fichiers que vous avez déposés.
- documents/<type>/<numéro>.json : chacune de vos demandes et autres documents : ses données
  actuelles, toutes ses versions antérieures et son historique (ce qui a été fait, quand et par
  qui, tel que le portail vous le montre).
- messages.json : les messages de votre boîte de réception.
- uploads/<id>-<nom> : les fichiers que vous avez déposés, tels que vous les avez déposés.

Les dates et heures sont en UTC (ISO 8601). Les fichiers .json s'ouvrent avec n'importe quel
éditeur de texte.
`;
